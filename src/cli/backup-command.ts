/**
 * `backup [FILE]` and `restore FILE` on the store DATABASE_URL names (or .env's).
 * backup: a checked copy now, from a running or a stopped store (SQLite's online backup works
 * beside a running service; PostgreSQL is copied into the same portable SQLite file). restore:
 * SQLite stores only, refused while any process has the store open.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { makeBackup } from '../backup/make.js';
import { backupName, stampOf } from '../backup/names.js';
import { ConfigError, loadConfig, storeOptions } from '../config/index.js';
import { openStore, restoreSqliteStore, type Store } from '../store/index.js';

const BACKUP_HELP = `Usage: backup [FILE]

Writes a checked copy of the store (DATABASE_URL) to FILE, by default BACKUP_DIR/sensorhub-<stamp>.db
or ./sensorhub-<stamp>.db. Works while the service runs. A PostgreSQL store is copied into a SQLite file.
Exit codes: 0 written and checked, 1 failed, 2 wrong usage.`;

const RESTORE_HELP = `Usage: restore FILE

Puts the backup FILE in place of the SQLite store (DATABASE_URL) after checking it. Refused while a
service (or any process) has the store open: stop it first. The replaced store is kept beside it as
<store>.replaced-<stamp> (with its -wal and -shm files).
Exit codes: 0 restored, 1 refused or failed, 2 wrong usage.`;

function args(argv: string[], help: string, name: string): { files: string[] } | number {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
    if (values.help) {
      console.log(help);
      return 0;
    }
    return { files: positionals };
  } catch (error) {
    console.error(`${name}: ${(error as Error).message}\n\n${help}`);
    return 2;
  }
}

function loadEnv(): void {
  if (existsSync('.env')) process.loadEnvFile('.env');
}

export async function backupMain(argv: string[]): Promise<number> {
  const parsed = args(argv, BACKUP_HELP, 'backup');
  if (typeof parsed === 'number') return parsed;
  if (parsed.files.length > 1) {
    console.error(`backup: one FILE at most\n\n${BACKUP_HELP}`);
    return 2;
  }
  loadEnv();
  let store: Store | undefined;
  try {
    const config = loadConfig();
    const at = Date.now();
    const file = resolve(parsed.files[0] ?? join(config.backupDir ?? '.', backupName(at)));
    if (existsSync(file)) {
      console.error(`backup: ${file} exists already`);
      return 1;
    }
    store = await openStore(config.databaseUrl, { ...storeOptions(config), seedDefaults: false });
    let last = 0;
    const made = await makeBackup(store, { file }, at, ({ part, copied, total }) => {
      if (copied === total || Date.now() - last > 1000) {
        last = Date.now();
        console.error(`backup: ${part} ${copied.toLocaleString('en-US')}/${total.toLocaleString('en-US')}`);
      }
    });
    const rows = Object.values(made.counts).reduce((a, b) => a + b, 0);
    console.log(
      `backup written and checked: ${made.file} (${made.bytes.toLocaleString('en-US')} bytes, ${rows.toLocaleString('en-US')} rows)`,
    );
    return 0;
  } catch (error) {
    const prefix = error instanceof ConfigError ? 'configuration error: ' : '';
    console.error(`backup: ${prefix}${(error as Error).message}`);
    return 1;
  } finally {
    await store?.close();
  }
}

export async function restoreMain(argv: string[]): Promise<number> {
  const parsed = args(argv, RESTORE_HELP, 'restore');
  if (typeof parsed === 'number') return parsed;
  if (parsed.files.length !== 1) {
    console.error(`restore: FILE is needed\n\n${RESTORE_HELP}`);
    return 2;
  }
  loadEnv();
  try {
    const config = loadConfig();
    const result = await restoreSqliteStore(config.databaseUrl, resolve(parsed.files[0]), stampOf(Date.now()));
    if (!result.restored) {
      const detail =
        result.reason === 'not-sqlite'
          ? 'restore works on SQLite stores only; for PostgreSQL, copy the backup in with copy-store --from sqlite:FILE --to postgres://… --force'
          : result.detail;
      console.error(`restore: refused: ${detail}`);
      return 1;
    }
    console.log(`restored ${parsed.files[0]}; the replaced store is kept as ${result.replaced.join(', ') || '(there was none)'}`);
    return 0;
  } catch (error) {
    const prefix = error instanceof ConfigError ? 'configuration error: ' : '';
    console.error(`restore: ${prefix}${(error as Error).message}`);
    return 1;
  }
}
