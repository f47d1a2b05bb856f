import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSqliteCopy } from '../../src/store/index.js';
import { eventually } from '../helpers/eventually.js';
import { manualServiceTimers } from '../helpers/manual-timers.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

const HOUR = 3_600_000;

describe.each(storeKinds())('backups on %s', (kind) => {
  let service: TestService;
  let scratch: string;
  let timers: ReturnType<typeof manualServiceTimers>;

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'sensorhub-backup-'));
    timers = manualServiceTimers();
  });
  afterEach(async () => {
    await service?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const start = async (backupDir: string) => {
    service = await startService(kind, {
      env: { BACKUP_DIR: backupDir, BACKUP_EVERY: 'PT24H', BACKUP_KEEP: '2' },
      app: { backup: { timers: timers.timers, soonMs: 0 } },
    });
    timers.follow(service);
    service.clock.now = Date.now();
  };
  const backupAlerts = async (state: string) =>
    (
      (await service.get(`/alerts?state=${state}`)).body as {
        kind: string;
        sensor_id: unknown;
        actuator_id: unknown;
        prototype_id: unknown;
      }[]
    ).filter((a) => a.kind === 'backup');

  it('writes a checked backup soon after start, reports it, and keeps BACKUP_KEEP of the good ones', async () => {
    const dir = join(scratch, 'backups');
    mkdirSync(dir);
    // Two older good backups, a stray file and what an interrupted backup left.
    writeFileSync(join(dir, 'sensorhub-20200101T000000Z.db'), 'old');
    writeFileSync(join(dir, 'sensorhub-20200102T000000Z.db'), 'old');
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    writeFileSync(join(dir, '.sensorhub-20200103T000000Z-99999999.db.partial'), 'half');
    await start(dir);
    expect(readdirSync(dir)).not.toContain('.sensorhub-20200103T000000Z-99999999.db.partial');
    expect((await service.post('/prototypes', { prototype_id: 100, prototype_name: 'tank' })).status).toBe(200);
    const sensor = (
      await service.post('/sensors/', {
        sensor_type: 'temperature',
        sensor_unit: 'Celsius',
        threshold_critically_low: 0,
        threshold_low: 1,
        threshold_high: 90,
        threshold_critically_high: 99,
        prototype_id: 100,
      })
    ).body;
    const readings = [0, 1, 2, 3, 4].map((i) => ({
      sensor_id: sensor.sensor_id,
      value: 7 + i / 10,
      timestamp: new Date(Date.now() - i * 1000).toISOString(),
    }));
    expect((await service.post('/measurements', readings)).status).toBe(200);

    timers.advanceTo(service.clock.now!);
    const health = await eventually(async () => {
      const body = (await service.get('/healthz')).body;
      return body.backup?.ok ? body : undefined;
    }, 'a backup in /healthz');
    expect(health.backup).toMatchObject({ ok: true, bytes: expect.any(Number) });
    const names = readdirSync(dir).sort();
    expect(names).toEqual(['notes.txt', 'sensorhub-20200102T000000Z.db', expect.stringMatching(/^sensorhub-\d{8}T\d{6}Z\.db$/)]);
    const check = await checkSqliteCopy(join(dir, names[2]));
    expect(check.ok).toBe(true);
    expect(check.counts.measurements).toBe(5);
    expect(check.counts.sensors).toBeGreaterThanOrEqual(1);

    const metrics = (await service.get('/metrics')).text;
    expect(metrics).toMatch(new RegExp(`sensorhub_backup_last_success_bytes ${health.backup.bytes}\\b`));
    expect(metrics).toMatch(/sensorhub_backup_last_success_timestamp_seconds [1-9]/);
    expect(metrics).toMatch(/sensorhub_backup_failures_total 0/);
  });

  it('raises the backup alert when the folder cannot be written, and a good backup clears it', async () => {
    const blocker = join(scratch, 'a-file');
    writeFileSync(blocker, 'not a folder');
    // Under a regular file: ENOTDIR, which stops root too.
    const dir = join(blocker, 'backups');
    await start(dir);
    timers.advanceTo(service.clock.now!);
    const [raised] = await eventually(async () => {
      const active = await backupAlerts('active');
      return active.length > 0 ? active : undefined;
    }, 'the backup alert');
    expect(raised).toMatchObject({ kind: 'backup', severity: 'critical', sensor_id: null, actuator_id: null, prototype_id: null });
    expect((await service.get('/healthz')).body.backup).toEqual({ at: null, bytes: null, ok: false });
    expect((await service.get('/metrics')).text).toMatch(/sensorhub_backup_failures_total 1/);

    // A day later the folder can be written: the next backup is good and clears the alert.
    rmSync(blocker);
    mkdirSync(blocker);
    timers.advanceTo(service.clock.now! + 24 * HOUR + 1);
    await eventually(async () => (await backupAlerts('active')).length === 0, 'the alert cleared');
    expect(await backupAlerts('cleared')).toHaveLength(1);
    expect((await service.get('/healthz')).body.backup).toMatchObject({ ok: true });
  });

  it('raises the backup alert when none is good for longer than BACKUP_EVERY and a grace', async () => {
    const dir = join(scratch, 'backups');
    await start(dir);
    timers.advanceTo(service.clock.now!);
    await eventually(async () => (await service.get('/healthz')).body.backup?.ok, 'the first backup');
    expect(await backupAlerts('active')).toHaveLength(0);
    // The next backup is due in a day; if it never comes (here: the folder is taken away and the
    // due backup fails silently is not the case: the service is kept from running it by moving past the grace).
    const first = service.clock.now!;
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'not a folder any more');
    timers.advanceTo(first + 24 * HOUR + 2 * HOUR);
    await eventually(async () => (await backupAlerts('active')).length === 1, 'the overdue alert');
    expect((await service.get('/healthz')).body.backup.ok).toBe(false);
  });
});
