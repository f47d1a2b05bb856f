import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Scratch PostgreSQL databases, made once and emptied for the next test file rather than dropped:
 * DROP DATABASE waits for a checkpoint of the whole server (most of a second on a busy machine),
 * while emptying the schema takes milliseconds. A worker keeps the databases it emptied; the
 * global setup drops every database of the run at the end.
 */
const spare: string[] = [];

/**
 * The harness's own statements (making, emptying and dropping databases, ending their sessions) go
 * to the server itself when the services reach it through a pooler (TEST_DATABASE_DIRECT_PORT):
 * a pooler would hand a session it just saw ended to the next client.
 */
function direct(url: string): string {
  const port = process.env.TEST_DATABASE_DIRECT_PORT;
  if (!port) return url;
  const parsed = new URL(url);
  parsed.port = port;
  return parsed.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: direct(url) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function withDatabase(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A database with nothing in it, as CREATE DATABASE makes one. */
export async function emptyPostgresDatabase(adminUrl: string, prefix: string): Promise<string> {
  const name = spare.pop();
  if (name) return name;
  const created = `${prefix}${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (admin) => admin.query(`CREATE DATABASE ${created}`));
  return created;
}

/**
 * Closes every connection to the database and takes everything out of it: what a test created
 * lives in the public schema (the service's tables, sequences, functions), and nothing else
 * outlives a connection (advisory locks and LISTEN go with it).
 */
export async function releasePostgresDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (admin) =>
    admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]),
  );
  await withClient(withDatabase(adminUrl, name), async (client) => {
    const schemas = await client.query<{ nspname: string }>(
      "select nspname from pg_namespace where nspname <> 'information_schema' and nspname not like 'pg\\_%'",
    );
    const others = schemas.rows.map((row) => row.nspname).filter((schema) => schema !== 'public');
    if (others.length > 0) throw new Error(`scratch database ${name} holds schemas besides public: ${others.join(', ')}`);
    await client.query('drop schema public cascade; create schema public');
  });
  spare.push(name);
}

/** Drops every database whose name starts with the run's prefix. */
export async function dropRunDatabases(adminUrl: string, prefix: string): Promise<void> {
  const names = await withClient(adminUrl, async (admin) => {
    const rows = await admin.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [prefix]);
    return rows.rows.map((row) => row.datname);
  });
  // Each drop waits for a checkpoint; side by side they share one.
  await Promise.all(names.map((name) => withClient(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))));
}
