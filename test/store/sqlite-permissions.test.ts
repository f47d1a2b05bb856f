import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exposedStoreFiles } from '../../src/store/sqlite/file-permissions.js';
import { openStore } from '../../src/store/index.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('SQLite store file permissions', () => {
  const root = mkdtempSync(join(tmpdir(), 'sensorhub-perms-'));
  chmodSync(root, 0o755);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('creates the folder 0700 and the database, WAL and shared-memory files 0600', async () => {
    const file = join(root, 'new', 'data', 'sensorhub.db');
    const store = await openStore(`sqlite:${file}`);
    try {
      await store.ingest([{ sensor_id: 1, value: 7, timestamp: Date.now() }]);
      expect(modeOf(join(root, 'new', 'data'))).toBe(0o700);
      expect(modeOf(join(root, 'new'))).toBe(0o700);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) expect([path, modeOf(path)]).toEqual([path, 0o600]);
      expect(exposedStoreFiles(file)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('names an existing folder or file that others can read', () => {
    const folder = join(root, 'old');
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755);
    const file = join(folder, 'sensorhub.db');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    expect(exposedStoreFiles(file)).toEqual([
      { path: folder, mode: '0755' },
      { path: file, mode: '0644' },
    ]);
  });
});
