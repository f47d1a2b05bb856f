import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSqliteCopy } from '../../src/store/index.js';
import { inRealTime } from '../helpers/eventually.js';
import { BUILT, requestJson, run, type ServiceProcess, spawnService } from '../helpers/process.js';
import { scratchDatabase } from '../helpers/stores.js';

const SENSOR = {
  sensor_type: 'temperature',
  sensor_unit: 'Celsius',
  threshold_critically_low: 0,
  threshold_low: 1,
  threshold_high: 90,
  threshold_critically_high: 99,
};
const GOOD = /^sensorhub-\d{8}T\d{6}Z\.db$/;

describe('backups of a running service process (SQLite)', () => {
  let dir: string;
  let service: ServiceProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sensorhub-backup-process-'));
  });
  afterEach(async () => {
    await service?.stop('SIGKILL');
    service = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({ DATABASE_URL: `sqlite:${join(dir, 'store.db')}`, BACKUP_DIR: join(dir, 'backups'), BACKUP_KEEP: '3' });
  const setUp = async () => {
    expect((await requestJson(`${service!.url}/prototypes`, 'POST', { prototype_id: 100, prototype_name: 'tank' })).status).toBe(200);
    const sensor = await requestJson(`${service!.url}/sensors/`, 'POST', { ...SENSOR, prototype_id: 100 });
    expect(sensor.status).toBe(200);
    return sensor.body.sensor_id as number;
  };

  it('backs up while ingest goes on, without an ingest error; restore refuses while it runs and works once stopped', async () => {
    service = await spawnService(env());
    const sensorId = await setUp();
    let posting = true;
    const statuses: number[] = [];
    const poster = (async () => {
      while (posting) {
        const res = await requestJson(`${service!.url}/measurements`, 'POST', {
          sensor_id: sensorId,
          value: 20,
          timestamp: new Date().toISOString(),
        });
        statuses.push(res.status);
      }
    })();
    const backup = await inRealTime(
      () => existsSync(join(dir, 'backups')) && readdirSync(join(dir, 'backups')).find((name) => GOOD.test(name)),
      'a backup',
    );
    await inRealTime(() => statuses.length > 20 && service!.output.some((l) => l.includes('backup written and checked')), 'more ingest');
    posting = false;
    await poster;
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const check = await checkSqliteCopy(join(dir, 'backups', backup));
    expect(check.ok).toBe(true);
    expect(check.counts.sensors).toBeGreaterThanOrEqual(1);
    expect(check.counts.measurements).toBeGreaterThanOrEqual(0);
    expect(check.counts.measurements).toBeLessThanOrEqual(statuses.length);
    const health = await requestJson(`${service.url}/healthz`);
    expect(health.body.backup).toMatchObject({ ok: true });

    const refused = await run(process.execPath, [BUILT.restore, join(dir, 'backups', backup)], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/holds the store/);

    await service.stop('SIGTERM');
    service = undefined;
    const restored = await run(process.execPath, [BUILT.restore, join(dir, 'backups', backup)], { env: env() });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const replaced = readdirSync(dir).find((name) => /^store\.db\.replaced-\d{8}T\d{6}Z$/.test(name));
    expect(replaced).toBeDefined();
    expect((await checkSqliteCopy(join(dir, replaced!))).counts.measurements).toBe(statuses.length);
    expect((await checkSqliteCopy(join(dir, 'store.db'))).counts.measurements).toBe(check.counts.measurements);
  });

  it('leaves the older backups and the store intact when killed mid-backup', async () => {
    // A first service makes the store large and a first backup, then stops.
    service = await spawnService(env());
    const sensorId = await setUp();
    expect(sensorId).toBeGreaterThan(0);
    const generated = await requestJson(`${service.url}/Measurement/Random`, 'POST', { nb_measurements: 400_000 });
    expect(generated.status).toBe(200);
    await inRealTime(() => service!.output.some((l) => l.includes('backup written and checked')), 'the first backup');
    await service.stop('SIGTERM');
    const first = readdirSync(join(dir, 'backups')).filter((name) => GOOD.test(name));
    expect(first).toHaveLength(1);

    // Started on an empty folder, the service backs up soon; it is killed at its first progress line.
    service = await spawnService({ ...env(), BACKUP_DIR: join(dir, 'backups2') });
    await inRealTime(() => service!.output.some((l) => l.includes('"msg":"backup progress"')), 'the backup under way');
    await service.stop('SIGKILL');
    service = undefined;
    // No half file under a good name; what it left is a partial, removed at the next start.
    expect(readdirSync(join(dir, 'backups2')).filter((name) => GOOD.test(name))).toEqual([]);
    expect(readdirSync(join(dir, 'backups2')).some((name) => name.endsWith('.partial'))).toBe(true);
    expect(readdirSync(join(dir, 'backups')).filter((name) => GOOD.test(name))).toEqual(first);
    expect((await checkSqliteCopy(join(dir, 'backups', first[0]))).ok).toBe(true);
    const store = await checkSqliteCopyOfStore(join(dir, 'store.db'));
    expect(store.ok).toBe(true);
    expect(store.counts.measurements).toBeGreaterThanOrEqual(400_000);
  }, 300_000);
});

/** The store read as a copy: a scratch copy, so the store itself is left as the kill left it. */
async function checkSqliteCopyOfStore(file: string) {
  const { copyFileSync } = await import('node:fs');
  const copy = `${file}.scratch`;
  copyFileSync(file, copy);
  for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) copyFileSync(file + suffix, copy + suffix);
  return checkSqliteCopy(copy);
}

describe.runIf(process.env.TEST_DATABASE_URL)('the backup command on PostgreSQL', () => {
  it('writes a portable SQLite file with the store’s rows', async () => {
    const database = await scratchDatabase('postgres');
    const dir = mkdtempSync(join(tmpdir(), 'sensorhub-backup-pg-'));
    let service: ServiceProcess | undefined;
    try {
      service = await spawnService({ DATABASE_URL: database.url });
      expect((await requestJson(`${service.url}/prototypes`, 'POST', { prototype_id: 100, prototype_name: 'tank' })).status).toBe(200);
      const sensor = await requestJson(`${service.url}/sensors/`, 'POST', { ...SENSOR, prototype_id: 100 });
      const rows = Array.from({ length: 50 }, (_, i) => ({
        sensor_id: sensor.body.sensor_id,
        value: i,
        timestamp: new Date(Date.now() - i * 1000).toISOString(),
      }));
      expect((await requestJson(`${service.url}/measurements`, 'POST', rows)).status).toBe(200);
      const file = join(dir, 'pg.db');
      const made = await run(process.execPath, [BUILT.backup, file], { env: { DATABASE_URL: database.url } });
      expect(made.code).toBe(0);
      expect(made.stdout).toMatch(/backup written and checked/);
      const check = await checkSqliteCopy(file);
      expect(check.ok).toBe(true);
      expect(check.counts.measurements).toBe(50);
      expect(check.counts.sensors).toBeGreaterThanOrEqual(1);
      expect(readdirSync(dir)).toEqual(['pg.db']);
      const refused = await run(process.execPath, [BUILT.restore, file], { env: { DATABASE_URL: database.url } });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/SQLite stores only/);
    } finally {
      await service?.stop();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
