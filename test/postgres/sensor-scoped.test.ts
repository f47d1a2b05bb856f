import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../src/domain/bucket-sizes.js';
import { retentionJob } from '../../src/history/retention-job.js';
import { phSensorBody } from '../helpers/bodies.js';
import { eventually } from '../helpers/eventually.js';
import { recordStatements, unscopedIn } from '../helpers/sensor-scoped.js';
import { startService, type TestService } from '../helpers/service.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const iso = (t: number) => new Date(t).toISOString();
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

describe('the sensor check of statements', () => {
  it('finds the reads and changes of measurements and buckets that name no sensor', async () => {
    expect(await unscopedIn('select * from measurements where measurement_id = $1')).toEqual([
      'select of measurements without a sensor_id',
    ]);
    expect(await unscopedIn('select count(*) from measurements')).toHaveLength(1);
    expect(await unscopedIn('delete from history_buckets where size_ms = 300000')).toHaveLength(1);
    expect(await unscopedIn('select 1 from history_buckets where sensor_id = 1 or start_ms > 0')).toHaveLength(1);
    expect(await unscopedIn('select * from measurements m join sensors s on s.sensor_id = m.sensor_id')).toHaveLength(1);
    expect(await unscopedIn('copy (select value from measurements where value > 1) to stdout')).toHaveLength(1);
    expect(await unscopedIn('insert into history_pending (hour_ms) values (1)')).toHaveLength(1);
    expect(await unscopedIn('with x as (select * from history_pending) select * from x')).toHaveLength(1);
  });

  it('lets through what names them, and changes of the schema', async () => {
    expect(await unscopedIn('select * from measurements where sensor_id = $1 and timestamp >= $2')).toEqual([]);
    expect(await unscopedIn('select * from measurements m where m.sensor_id = any($1::int[]) and m.measurement_id = 4')).toEqual([]);
    expect(await unscopedIn('delete from history_buckets where sensor_id in (1, 2)')).toEqual([]);
    expect(await unscopedIn('copy measurements (measurement_id, sensor_id, value, timestamp) from stdin (format binary)')).toEqual([]);
    expect(await unscopedIn('alter table measurements detach partition measurements_20261120 concurrently')).toEqual([]);
    expect(await unscopedIn('select 1 from sensors')).toEqual([]);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('every statement on measurements and buckets names its sensors (PostgreSQL)', () => {
  let a: TestService;
  let b: TestService;
  let recording: ReturnType<typeof recordStatements>;
  beforeAll(async () => {
    a = await startService('postgres', { now: NOW });
    b = await startService('postgres', { database: a.database, now: NOW });
    recording = recordStatements();
  });
  afterAll(async () => {
    recording?.stop();
    await b?.app.close();
    await a?.close();
  });

  it('through ingest, reads at every size, the export, the generator, deletes, the rollup, retention and the relay', async () => {
    const sensor = (await a.post('/sensors/', phSensorBody)).body.sensor_id as number;
    const rows = [];
    for (let t = NOW - 3 * DAY; t < NOW; t += 3_600_000) rows.push({ sensor_id: sensor, value: (t / 3_600_000) % 7, timestamp: iso(t) });
    expect((await a.post('/measurements', rows)).status).toBe(200);
    expect(
      (
        await a.post('/measurements', [
          { sensor_id: 1, value: 2 },
          { sensor_id: sensor, value: 3 },
        ])
      ).status,
    ).toBe(200);
    // A late reading for a day without its partition yet.
    expect((await a.post('/measurements', { sensor_id: sensor, value: 1, timestamp: iso(NOW - 40 * DAY) })).status).toBe(200);
    // Another instance hears of them and reads them back.
    await eventually(async () => expect((await b.get(`/measurements/${sensor}/last`)).body.value).toBe(3));
    for (const path of [
      `/measurements/${sensor}`,
      `/measurements/${sensor}?time_delta=P1D`,
      `/measurements/${sensor}/last`,
      `/measurements/${sensor}/last`,
      `/measurements/${sensor}?max_points=10`,
      `/measurements/${sensor}?max_points=10&time_delta=P30D`,
      `/measurements/${sensor}/aggregate?bucket=5m`,
      `/measurements/${sensor}/aggregate?bucket=1h`,
      `/measurements/${sensor}/aggregate?bucket=1d`,
      `/measurements/${sensor}/aggregate?bucket=2h`,
      `/measurements/${sensor}/aggregate?bucket=7m`,
      `/measurements/${sensor}/aggregate?max_points=50`,
      '/measurements/export',
      `/measurements/export?sensor_id=${sensor}&start_time=${iso(NOW - DAY)}`,
    ]) {
      expect((await a.get(path)).status, path).toBe(200);
    }
    const victim = (await a.get(`/measurements/${sensor}?time_delta=P1D`)).body[2].measurement_id;
    expect((await a.request('DELETE', `/measurements/${victim}`)).status).toBe(204);
    while ((await a.store.upkeep!.rollUp()) > 0);
    expect((await a.post('/Measurement/Random', { nb_measurements: 300, replace: false })).status).toBe(200);
    expect((await a.post('/Measurement/Random', { nb_measurements: 300, replace: true })).status).toBe(200);
    const retention = retentionJob(a.store, { rawMs: 30 * DAY, fiveMinuteMs: 60 * DAY }, () => NOW, quiet);
    expect(await retention.runOnce()).toBeDefined();
    expect((await a.request('DELETE', `/sensors/${sensor}?cascade=true`)).status).toBe(204);

    const touching = recording.statements.filter((s) => /\b(measurements|history_buckets|history_pending)\b/.test(s));
    // The workload reached each kind of statement: the check below has something to check.
    for (const kind of [
      /^copy measurements/,
      /^copy \(select/,
      /insert into history_pending/,
      /delete from history_pending/,
      /"measurement_id" between/,
    ]) {
      expect(
        touching.some((s) => kind.test(s.trim())),
        String(kind),
      ).toBe(true);
    }
    const offenders: string[] = [];
    for (const statement of new Set(touching)) {
      for (const problem of await unscopedIn(statement)) offenders.push(`${problem}: ${statement.replace(/\s+/g, ' ').slice(0, 300)}`);
    }
    expect(offenders).toEqual([]);
  });
});
