import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { manualServiceTimers } from '../helpers/manual-timers.js';
import { startService, type TestService } from '../helpers/service.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const GOOD = /^sensorhub-\d{8}T\d{6}Z\.db$/;
const SENSOR = {
  sensor_type: 'temperature',
  sensor_unit: 'Celsius',
  threshold_critically_low: 0,
  threshold_low: 1,
  threshold_high: 90,
  threshold_critically_high: 99,
};

/** Backups never touch the store's own files, and are the owner's alone (SQLite). */
describe('backup files (sqlite)', () => {
  let scratch: string;
  let backups: string;
  let service: TestService | undefined;
  let timers: ReturnType<typeof manualServiceTimers>;
  let umask: number;
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'sensorhub-backup-files-'));
    backups = join(scratch, 'backups');
    mkdirSync(backups);
    timers = manualServiceTimers(NOW);
    // A usual umask: files are made 0644 unless the service says otherwise.
    umask = process.umask(0o022);
  });
  afterEach(async () => {
    process.umask(umask);
    await service?.close();
    service = undefined;
    rmSync(scratch, { recursive: true, force: true });
  });

  const start = (databaseUrl: string, keep = '1') =>
    startService('sqlite', {
      now: NOW,
      env: { DATABASE_URL: databaseUrl, BACKUP_DIR: backups, BACKUP_EVERY: 'PT24H', BACKUP_KEEP: keep },
      app: { backup: { timers: timers.timers, soonMs: 0 } },
    });
  const backupNow = async (s: TestService, count: number) => {
    timers.follow(s);
    timers.advanceTo(s.clock.now! + 24 * 3_600_000 + 1);
    await eventually(() => readdirSync(backups).filter((n) => GOOD.test(n)).length >= count || undefined, 'a backup');
  };

  it('refuses to start with the store in BACKUP_DIR under a backup’s name, directly or through a link', async () => {
    const named = join(backups, 'sensorhub-20240101T000000Z.db');
    await expect(start(`sqlite:${named}`)).rejects.toThrow(/DATABASE_URL.*BACKUP_DIR/);
    symlinkSync(named, join(scratch, 'live.db'));
    await expect(start(`sqlite:${join(scratch, 'live.db')}`)).rejects.toThrow(/DATABASE_URL.*BACKUP_DIR/);
    const partial = join(backups, '.sensorhub-20240101T000000Z-1.db.partial');
    await expect(start(`sqlite:${partial}`)).rejects.toThrow(/DATABASE_URL.*BACKUP_DIR/);
  });

  it('refuses to start with the store hard-linked under a backup’s name', async () => {
    const store = join(scratch, 'store.db');
    service = await start(`sqlite:${store}`);
    await service.close();
    service = undefined;
    linkSync(store, join(backups, 'sensorhub-20240101T000000Z.db'));
    await expect(start(`sqlite:${store}`)).rejects.toThrow(/DATABASE_URL.*BACKUP_DIR/);
  });

  it('never deletes a file of the store in rotation, and the store keeps every acknowledged reading', async () => {
    const store = join(scratch, 'store.db');
    service = await start(`sqlite:${store}`);
    expect((await service.post('/prototypes', { prototype_id: 100, prototype_name: 'tank' })).status).toBe(200);
    const sensor = (await service.post('/sensors/', { ...SENSOR, prototype_id: 100 })).body;
    // Linked in while the service runs, under the oldest backup name: rotation with BACKUP_KEEP=1 would pick it.
    const linked = ['sensorhub-20000101T000000Z.db', 'sensorhub-20000102T000000Z.db'];
    linkSync(store, join(backups, linked[0]));
    symlinkSync(store, join(backups, linked[1]));
    const readings = [0, 1, 2, 3, 4, 5].map((i) => ({
      sensor_id: sensor.sensor_id,
      value: 7 + i / 10,
      timestamp: new Date(NOW - i * 1000).toISOString(),
    }));
    expect((await service.post('/measurements', readings)).status).toBe(200);
    await backupNow(service, 3);
    const names = readdirSync(backups);
    expect(names).toEqual(expect.arrayContaining(linked));
    expect(names.filter((n) => GOOD.test(n) && !linked.includes(n))).toHaveLength(1);
    expect(existsSync(store)).toBe(true);
    expect((await service.get(`/measurements/${sensor.sensor_id}?start_time=2026-01-15T11:00:00Z`)).body).toHaveLength(6);
  });

  it('writes backups 0600 under a umask of 022, and removes a .partial a killed backup left', async () => {
    const leftover = join(backups, '.sensorhub-20250101T000000Z-99999999.db.partial');
    service = await start(`sqlite:${join(scratch, 'store.db')}`, '3');
    writeFileSync(leftover, 'half a backup');
    await backupNow(service, 1);
    const [made] = readdirSync(backups).filter((n) => GOOD.test(n));
    expect(statSync(join(backups, made)).mode & 0o777).toBe(0o600);
    expect(existsSync(leftover)).toBe(false);
  });
});
