import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaDifferences } from '../../src/store/backup/schema-check.js';
import { BUILT, run } from '../helpers/process.js';
import { startService } from '../helpers/service.js';

/**
 * Restore checks the schema (docs/operations.md): a backup with tables, columns, indexes, views
 * or triggers other than the migrations make is refused by `restore` (exit 1, the difference
 * named) and the store is left as it was; the service's own backup restores.
 */
describe('restore compares the schema with what the migrations make (SQLite)', () => {
  let dir: string;
  let store: string;
  let backup: string;
  const env = () => ({ DATABASE_URL: `sqlite:${store}` });
  const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sensorhub-restore-schema-'));
    store = join(dir, 'store.db');
    const service = await startService('sqlite', { database: { url: `sqlite:${store}`, drop: async () => {} } });
    expect((await service.post('/prototypes', { prototype_id: 5, prototype_name: 'tank' })).status).toBe(200);
    await service.close();
    backup = join(dir, 'backup.db');
    const made = await run(process.execPath, [BUILT.backup, backup], { env: env() });
    expect(made.code, made.stderr).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A copy of the backup with `change` run on it. */
  function tampered(name: string, change: string): string {
    const file = join(dir, name);
    copyFileSync(backup, file);
    const db = new SQLite(file);
    db.exec(change);
    db.close();
    return file;
  }

  it('finds no difference in the service’s own backup', async () => {
    expect(await schemaDifferences(backup)).toEqual([]);
  });

  const cases: [string, string, RegExp][] = [
    [
      'a foreign trigger',
      'create trigger undo_lockouts after update on actuators begin update actuators set lockout_since = null; end',
      /extra trigger undo_lockouts on actuators/,
    ],
    ['a missing column', 'alter table actuators drop column stock_low_ml', /missing column actuators\.stock_low_ml/],
    ['an extra index', 'create index by_value on measurements (value)', /extra index by_value on measurements/],
    ['an extra view', 'create view everything as select * from sensors', /extra view everything/],
    ['an extra table', 'create table notes_of_mine (x integer)', /extra table notes_of_mine/],
  ];

  it.each(cases)('refuses %s: exit 1 naming it, the store untouched', async (_what, change, named) => {
    const file = tampered(`${_what.replace(/\W+/g, '-')}.db`, change);
    const before = hash(store);
    const refused = await run(process.execPath, [BUILT.restore, file], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/restore: refused: .*schema/);
    expect(refused.stderr).toMatch(named);
    expect(hash(store)).toBe(before);
    expect(readdirSync(dir).filter((f) => f.includes('.replaced-') || f.includes('.restoring-'))).toEqual([]);
  });

  it('restores the service’s own backup', async () => {
    const restored = await run(process.execPath, [BUILT.restore, backup], { env: env() });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(existsSync(store)).toBe(true);
  });
});
