/**
 * Runs test files with every PostgreSQL connection of the suite going through Debian's PgBouncer in
 * transaction mode (as docs/operations.md recommends in front of a farm's server): a PgBouncer of
 * its own on a free port in front of TEST_DATABASE_URL's server, whose configuration is not
 * touched. The relay's LISTEN alone goes to the server itself (DATABASE_LISTEN_URL), since a
 * listening session cannot live in transaction mode.
 *
 *   node --import tsx scripts/test-through-pgbouncer.ts [test files…]   (npm run test:pgbouncer)
 *
 * Without files it runs the representative part named below. Exits with the tests' exit code,
 * after printing what PgBouncer counted (so a run that went around it shows).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Every API test on both stores, the several-instance and store tests: the paths that reach PostgreSQL. */
export const REPRESENTATIVE = [
  'test/api',
  'test/postgres',
  'test/store',
  'test/services',
  'test/events',
  'test/process/durability.test.ts',
];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function main(): Promise<number> {
  const target = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  if (spawnSync('sh', ['-c', 'command -v pgbouncer']).status !== 0) {
    console.error('pgbouncer is not installed: apt-get install -y pgbouncer');
    return 1;
  }
  const dir = mkdtempSync(join(tmpdir(), 'sensorhub-pgbouncer-'));
  // PgBouncer, run as another user when this is root, writes its log and pid file here.
  chmodSync(dir, 0o777);
  const port = await freePort();
  const user = target.username || 'postgres';
  writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 2000',
      'default_pool_size = 40',
      'max_db_connections = 60',
      `admin_users = ${user}`,
      // What node-postgres sends at start-up and transaction mode cannot carry per client: the
      // service's statement limit is also kept by the client, and the server's time zone is UTC.
      'ignore_startup_parameters = extra_float_digits,options,statement_timeout',
      'server_reset_query =',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: as the postgres user where there is one.
  const asUser = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const bouncer = spawn('pgbouncer', [...asUser, join(dir, 'pgbouncer.ini')], { stdio: 'inherit' });
  const through = new URL(target.toString());
  through.port = String(port);
  for (let i = 0; ; i++) {
    try {
      const client = new pg.Client({ connectionString: through.toString() });
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      if (i > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  console.error(`PgBouncer ${spawnSync('pgbouncer', ['--version']).stdout.toString().trim()} in transaction mode on port ${port}`);
  const files = process.argv.slice(2);
  const tests = spawn('npx', ['vitest', 'run', ...(files.length > 0 ? files : REPRESENTATIVE)], {
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: through.toString(), TEST_DATABASE_DIRECT_PORT: target.port || '5432' },
  });
  const [code] = (await new Promise((resolve) => tests.on('exit', (...args) => resolve(args)))) as [number | null];
  try {
    const admin = new pg.Client({ connectionString: `postgres://${user}@127.0.0.1:${port}/pgbouncer` });
    await admin.connect();
    const { rows } = await admin.query('show stats');
    const total = rows.reduce((n: number, r: { total_xact_count: string }) => n + Number(r.total_xact_count), 0);
    console.error(`PgBouncer carried ${total} transactions for the tests`);
    await admin.end();
  } catch (error) {
    console.error(`could not read PgBouncer's counts: ${(error as Error).message}`);
  }
  bouncer.kill('SIGTERM');
  await new Promise((resolve) => bouncer.on('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
  return code ?? 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
