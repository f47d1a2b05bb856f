import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { run } from '../helpers/process.js';

const ROOT = new URL('../../', import.meta.url).pathname;
/**
 * Opens the store (migrations and default data) the way the service and the CLIs do, at a moment
 * given to every process alike, then exits.
 */
const OPEN_STORE = `import('${ROOT}dist/store/index.js').then(({ openStore }) => setTimeout(async () => {
  const store = await openStore(process.argv[1]);
  await store.close();
  console.log('opened');
}, Number(process.argv[2]) - Date.now()))`;

const tables = (file: string) => {
  const sqlite = new SQLite(file, { readonly: true });
  try {
    return (sqlite.prepare(`select name from sqlite_master where type = 'table' order by name`).pluck().all() as string[]).filter(
      (name) => !name.startsWith('sqlite_'),
    );
  } finally {
    sqlite.close();
  }
};

describe('SQLite migrations', () => {
  const root = mkdtempSync(join(tmpdir(), 'sensorhub-migrations-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('three processes opening one new file at the same moment: each migration runs once, the defaults are made once', async () => {
    const file = join(root, 'shared.db');
    const at = String(Date.now() + 2000);
    const opened = await Promise.all(Array.from({ length: 3 }, () => run(process.execPath, ['-e', OPEN_STORE, `sqlite:${file}`, at])));
    for (const { code, stdout, stderr } of opened)
      expect({ code, stdout: stdout.trim(), stderr }).toEqual({ code: 0, stdout: 'opened', stderr: '' });

    const sqlite = new SQLite(file, { readonly: true });
    try {
      const migrations = sqlite.prepare('select name from kysely_migration order by name').pluck().all() as string[];
      expect(migrations.length).toBeGreaterThan(5);
      expect(new Set(migrations).size).toBe(migrations.length);
      expect(sqlite.prepare('select prototype_id, prototype_name from prototypes').all()).toEqual([
        { prototype_id: 0, prototype_name: 'default_prototype' },
      ]);
      expect(sqlite.prepare('select count(*) from sensors').pluck().get()).toBe(3);
    } finally {
      sqlite.close();
    }
  });

  it('a migration that fails leaves the file as it was: none of the pending migrations before it stay applied', async () => {
    const file = join(root, 'conflict.db');
    // A table in the way of a later migration (the history buckets) makes that one fail.
    const before = new SQLite(file);
    before.exec('create table history_buckets (anything text)');
    before.close();

    await expect(openStore(`sqlite:${file}`)).rejects.toThrow(/history_buckets/);
    expect(tables(file)).toEqual(['history_buckets']);
  });
});
