import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { temporaryFolder } from './temporary.js';

/**
 * The server settings docs/operations.md recommends for a farm's ingest on one PostgreSQL server,
 * with the reason for each; the scale bench starts its own cluster with them and checks each is in
 * force (also on a server it is pointed at).
 */
export const RECOMMENDED: { name: string; value: string; why: string }[] = [
  {
    name: 'shared_buffers',
    value: '2GB',
    why: 'the hot day partitions, their indexes and the bucket table stay in memory (25% of RAM on a dedicated server)',
  },
  {
    name: 'max_wal_size',
    value: '8GB',
    why: 'checkpoints every checkpoint_timeout rather than every few minutes under 10,000 rows/s: fewer full-page writes',
  },
  { name: 'checkpoint_timeout', value: '15min', why: 'as above' },
  { name: 'checkpoint_completion_target', value: '0.9', why: 'spreads checkpoint writes, so ingest latency has no spikes' },
  { name: 'wal_compression', value: 'lz4', why: 'full-page images after a checkpoint compress well (lz4: little CPU): less WAL per row' },
  { name: 'wal_buffers', value: '64MB', why: 'large group commits fit without waiting for WAL writes' },
  {
    name: 'synchronous_commit',
    value: 'on',
    why: 'an acknowledged reading survives a crash; group commit keeps it to one flush per commit',
  },
  { name: 'random_page_cost', value: '1.1', why: 'SSD storage: index walks over one sensor are as cheap as they are' },
  { name: 'effective_cache_size', value: '8GB', why: 'what the OS caches too, so the planner prefers the indexes' },
  { name: 'jit', value: 'off', why: 'compiling plans over hundreds of partitions costs more than these short queries run' },
  { name: 'autovacuum_naptime', value: '10s', why: 'each new day partition is analyzed soon after it starts filling' },
  {
    name: 'autovacuum_vacuum_insert_scale_factor',
    value: '0.05',
    why: 'insert-only partitions get their visibility map set early: index-only reads, the id index summarized',
  },
  { name: 'autovacuum_analyze_scale_factor', value: '0.02', why: 'fresh statistics on the growing day partition' },
  {
    name: 'max_locks_per_transaction',
    value: '256',
    why: 'a statement over a year of day partitions locks each partition and its indexes',
  },
  { name: 'max_connections', value: '200', why: 'instances × DATABASE_POOL_SIZE (or PgBouncer in front)' },
];

/** PostgreSQL's own units, so SHOW's answer can be compared with the setting given. */
export function sameSetting(shown: string, wanted: string): boolean {
  const norm = (v: string) => v.trim().toLowerCase().replace(/\s+/g, '');
  return norm(shown) === norm(wanted);
}

/** Each recommended setting as the server shows it, and whether it is in force. */
export async function checkSettings(url: string): Promise<{ name: string; wanted: string; shown: string; ok: boolean }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out = [];
    for (const { name, value } of RECOMMENDED) {
      const shown = (await client.query<Record<string, string>>(`show ${name}`)).rows[0][name];
      out.push({ name, wanted: value, shown, ok: sameSetting(shown, value) });
    }
    return out;
  } finally {
    await client.end();
  }
}

function binDir(): string {
  const base = '/usr/lib/postgresql';
  const version = existsSync(base) ? readdirSync(base).sort().at(-1) : undefined;
  if (!version) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)');
  return join(base, version, 'bin');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Cluster {
  url(database: string): string;
  /** Bytes the cluster's data folder takes on disk. */
  diskBytes(): number;
  stop(): void;
}

/**
 * A PostgreSQL cluster of the bench's own (initdb on a free port, in a temporary folder, run as
 * the `postgres` user when this is root), with the recommended settings; the shared server is
 * never touched. `dir` puts the data folder elsewhere (a disk with room for 10⁸ rows).
 */
export async function startCluster(dir?: string): Promise<Cluster> {
  if (dir) mkdirSync(dir, { recursive: true });
  const folder = dir
    ? { path: dir, remove: () => rmSync(join(dir, 'data'), { recursive: true, force: true }) }
    : temporaryFolder('sensorhub-pgscale-');
  chmodSync(folder.path, 0o777);
  const data = join(folder.path, 'data');
  const bin = binDir();
  const asPostgres = (cmd: string, args: string[]) =>
    process.getuid?.() === 0
      ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' })
      : execFileSync(cmd, args, { stdio: 'pipe' });
  asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const settings = [
    ...RECOMMENDED.map(({ name, value }) => `${name} = '${value}'`),
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${folder.path}'`,
    "timezone = 'UTC'",
  ];
  writeFileSync(join(folder.path, 'extra.conf'), settings.join('\n') + '\n');
  chmodSync(join(folder.path, 'extra.conf'), 0o644);
  asPostgres('sh', ['-c', `echo "include '${join(folder.path, 'extra.conf')}'" >> ${join(data, 'postgresql.conf')}`]);
  asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-l', join(folder.path, 'server.log'), '-w', 'start']);
  const stop = () => {
    spawnSync(
      process.getuid?.() === 0 ? 'runuser' : join(bin, 'pg_ctl'),
      process.getuid?.() === 0
        ? ['-u', 'postgres', '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'fast', 'stop']
        : ['-D', data, '-m', 'fast', 'stop'],
    );
    folder.remove();
  };
  process.once('exit', stop);
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    diskBytes: () => Number(spawnSync('du', ['-sb', data]).stdout.toString().split('\t')[0]),
    stop,
  };
}
