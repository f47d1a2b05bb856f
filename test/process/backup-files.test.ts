import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILT, requestJson, run, type ServiceProcess, spawnService } from '../helpers/process.js';

/** The command line under a usual umask (022: files 0644 unless made otherwise). */
const withUmask = (script: string, args: string[], env: Record<string, string>) =>
  run('/bin/sh', ['-c', `umask 022; exec "${process.execPath}" "$@"`, 'sh', script, ...args], { env });

describe('backup and restore files from the command line (SQLite)', () => {
  let dir: string;
  let service: ServiceProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sensorhub-backup-files-'));
  });
  afterEach(async () => {
    await service?.stop('SIGKILL');
    service = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes `backup FILE` 0600 under umask 022, removing the .partial a killed backup left beside it', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'store.db')}` };
    const out = join(dir, 'copies');
    mkdirSync(out);
    const leftover = join(out, '.sensorhub-20250101T000000Z-99999999.db.partial');
    writeFileSync(leftover, 'forty megabytes, once');
    const made = await withUmask(BUILT.backup, [join(out, 'copy.db')], env);
    expect(made.stderr).not.toMatch(/failed|error/i);
    expect(made.code).toBe(0);
    expect(statSync(join(out, 'copy.db')).mode & 0o777).toBe(0o600);
    expect(existsSync(leftover)).toBe(false);
    expect(readdirSync(out)).toEqual(['copy.db']);
  });

  it.each([
    ['the service through a link, restore by the real path', 'link', 'real'],
    ['the service by the real path, restore through a link', 'real', 'link'],
  ])('refuses a restore while a service holds the store: %s', async (_name, served, restored) => {
    mkdirSync(join(dir, 'real'));
    const real = join(dir, 'real', 'store.db');
    const link = join(dir, 'store.db');
    symlinkSync(real, link);
    const url = (which: string) => `sqlite:${which === 'link' ? link : real}`;
    service = await spawnService({ DATABASE_URL: url(served) });
    expect((await requestJson(`${service.url}/prototypes`, 'POST', { prototype_id: 100, prototype_name: 'tank' })).status).toBe(200);
    const backup = join(dir, 'backup.db');
    expect((await run(process.execPath, [BUILT.backup, backup], { env: { DATABASE_URL: url(served) } })).code).toBe(0);

    const refused = await run(process.execPath, [BUILT.restore, backup], { env: { DATABASE_URL: url(restored) } });
    expect(refused.stderr).toMatch(/holds the store/);
    expect(refused.code).toBe(1);
    expect(readdirSync(dir).filter((n) => n.includes('.replaced-'))).toEqual([]);
    expect(readdirSync(join(dir, 'real')).filter((n) => n.includes('.replaced-'))).toEqual([]);
    // The service still writes into the store the next start opens.
    expect((await requestJson(`${service.url}/prototypes`, 'POST', { prototype_id: 101, prototype_name: 'after' })).status).toBe(200);
    await service.stop('SIGTERM');
    service = await spawnService({ DATABASE_URL: url(restored) });
    const names = (await requestJson(`${service.url}/prototypes`)).body.map((p: { prototype_name: string }) => p.prototype_name);
    expect(names).toEqual(expect.arrayContaining(['tank', 'after']));
  });
});
