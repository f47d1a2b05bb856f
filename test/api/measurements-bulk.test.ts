import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds, dbOf, dialectOf } from '../helpers/stores.js';

const HEADER =
  'Sensor ID,Sensor Type,Sensor Value,Timestamp,Threshold Critically Low,Threshold Low,Threshold High,Threshold Critically High';
const NOW = Date.UTC(2026, 10, 22, 12);
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(storeKinds())('export and synthetic data (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
    await service.post('/prototypes', { prototype_id: 9, prototype_name: 'other' });
    await service.post('/sensors/', {
      sensor_type: 'water_level',
      prototype_id: 9,
      sensor_unit: 'cm',
      threshold_critically_low: 1.5,
      threshold_low: 2,
      threshold_high: 30,
      threshold_critically_high: 40,
    }); // sensor 4
  });
  afterAll(() => service?.close());

  const exportCsv = async (query = '') => {
    const res = await service.get(`/measurements/export${query}`);
    expect(res.status).toBe(200);
    return res;
  };

  describe('GET /measurements/export', () => {
    it('streams every measurement as CSV, by sensor then timestamp, with the exact header', async () => {
      await service.post('/measurements', [
        { sensor_id: 4, value: 12.5, timestamp: iso(NOW - 1000) },
        { sensor_id: 2, value: 6.1, timestamp: iso(NOW - 2000) },
        { sensor_id: 2, value: 5.9, timestamp: iso(NOW - 3000) },
        { sensor_id: 1, value: 0.1 + 0.2, timestamp: iso(NOW - 500) },
      ]);
      const res = await exportCsv();
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="all_sensors_measurements.csv"');
      expect(res.text.split('\r\n')[0]).toBe(HEADER);
      const rows = parse(res.text, { columns: true }) as Record<string, string>[];
      expect(rows.map((r) => [r['Sensor ID'], r['Sensor Value']])).toEqual([
        ['1', String(0.1 + 0.2)],
        ['2', '5.9'],
        ['2', '6.1'],
        ['4', '12.5'],
      ]);
      expect(rows[3]).toEqual({
        'Sensor ID': '4',
        'Sensor Type': 'water_level',
        'Sensor Value': '12.5',
        Timestamp: iso(NOW - 1000),
        'Threshold Critically Low': '1.5',
        'Threshold Low': '2',
        'Threshold High': '30',
        'Threshold Critically High': '40',
      });
    });

    it('streams long series whole: rows sharing one timestamp across read pages, and several sensors', async () => {
      const stamp = iso(NOW - 10_000);
      await service.post(
        '/measurements',
        Array.from({ length: 7000 }, (_, i) => ({ sensor_id: 3, value: i, timestamp: stamp })),
      );
      await service.post(
        '/measurements',
        Array.from({ length: 6000 }, (_, i) => ({ sensor_id: 4, value: i, timestamp: iso(NOW - 10_000_000 + i * 1000) })),
      );
      const rows = parse((await exportCsv('?sensor_id=3&sensor_id=4')).text, { columns: true }) as Record<string, string>[];
      const three = rows.filter((r) => r['Sensor ID'] === '3').map((r) => Number(r['Sensor Value']));
      const four = rows.filter((r) => r['Sensor ID'] === '4');
      expect(three).toEqual(Array.from({ length: 7000 }, (_, i) => i));
      expect(four.slice(0, 6000).map((r) => Number(r['Sensor Value']))).toEqual(Array.from({ length: 6000 }, (_, i) => i));
      expect(rows.findIndex((r) => r['Sensor ID'] === '4')).toBe(7000);
      // Leave the store as the other tests expect it.
      await sql`delete from measurements where sensor_id = 3 or (sensor_id = 4 and timestamp < ${dialectOf(service.store).time(NOW - 2000)})`.execute(
        dbOf(service.store),
      );
    });

    it('filters by sensor (repeatable), prototype and window', async () => {
      const ids = (text: string) =>
        (parse(text, { columns: true }) as Record<string, string>[]).map((r) => `${r['Sensor ID']}:${r['Sensor Value']}`);
      expect(ids((await exportCsv('?sensor_id=2')).text)).toEqual(['2:5.9', '2:6.1']);
      expect(ids((await exportCsv('?sensor_id=4&sensor_id=1')).text)).toEqual([`1:${0.1 + 0.2}`, '4:12.5']);
      expect(ids((await exportCsv('?prototype_id=9')).text)).toEqual(['4:12.5']);
      expect(ids((await exportCsv(`?start_time=${iso(NOW - 2000)}&end_time=${iso(NOW - 500)}`)).text)).toEqual(['2:6.1', '4:12.5']);
      expect((await exportCsv('?prototype_id=404')).text).toBe(`${HEADER}\r\n`);
    });

    it.each([
      ['start_time after end_time', `?start_time=${iso(NOW)}&end_time=${iso(NOW - 1)}`],
      ['a bad sensor id', '?sensor_id=abc'],
      ['a bad date', '?end_time=tomorrow'],
    ])('refuses %s with 422', async (_name, query) => {
      const res = await service.get(`/measurements/export${query}`);
      expect(res.status).toBe(422);
      expect(Array.isArray(res.body.detail)).toBe(true);
    });
  });

  describe('POST /Measurement/Random', () => {
    const total = async () => (parse((await exportCsv()).text, { columns: true }) as unknown[]).length;

    it.each([
      ['nb_measurements 0', { nb_measurements: 0 }, ['body', 'nb_measurements']],
      ['nb_measurements over 2,000,000', { nb_measurements: 2_000_001 }, ['body', 'nb_measurements']],
      ['a ratio above 1', { yearly_measurements_ratio: 1.5 }, ['body', 'yearly_measurements_ratio']],
      ['ratios adding up to more than 1', { yearly_measurements_ratio: 0.9, dayly_measurements_ratio: 0.2 }, ['body']],
      ['a negative deviation', { deviation_rate: -1 }, ['body', 'deviation_rate']],
      ['an infinite deviation given as text', { deviation_rate: '1e999' }, ['body', 'deviation_rate']],
      ['a smoothing factor above 1', { smoothing_factor: 2 }, ['body', 'smoothing_factor']],
      ['a text replace flag', { replace: 'yes' }, ['body', 'replace']],
    ])('refuses %s with 422 and writes nothing', async (_name, body, loc) => {
      const before = await total();
      const res = await service.post('/Measurement/Random', body);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(loc);
      expect(await total()).toBe(before);
    });

    it('replaces everything by default, sharing the count equally among the sensors', async () => {
      const before = await total();
      const res = await service.post('/Measurement/Random', { nb_measurements: 1001 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String), generated: 1004, deleted: before });
      const rows = parse((await exportCsv()).text, { columns: true }) as Record<string, string>[];
      expect(rows).toHaveLength(1004);
      for (const id of ['1', '2', '3', '4']) expect(rows.filter((r) => r['Sensor ID'] === id)).toHaveLength(251);
      const times = rows.map((r) => Date.parse(r.Timestamp));
      expect(Math.max(...times)).toBeLessThanOrEqual(NOW);
      expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW - 365 * 24 * 3600_000);
      const ph = rows.filter((r) => r['Sensor ID'] === '2').map((r) => Number(r['Sensor Value']));
      expect(Math.abs(ph.reduce((a, b) => a + b, 0) / ph.length - 5)).toBeLessThan(2.5);
    });

    it('keeps existing data with replace: false, and takes an empty body as all defaults', async () => {
      const before = await total();
      const res = await service.post('/Measurement/Random', { nb_measurements: 8, replace: false });
      expect(res.body).toMatchObject({ generated: 8, deleted: 0 });
      expect(await total()).toBe(before + 8);
      const defaults = await service.request('POST', '/Measurement/Random');
      expect(defaults.status).toBe(200);
      expect(defaults.body).toMatchObject({ generated: 500, deleted: before + 8 });
    });

    it('leaves the old data intact when it fails midway', async () => {
      await service.post('/Measurement/Random', { nb_measurements: 40 });
      const before = (await exportCsv()).text;
      // A real failure inside the transaction, after the delete and some inserts.
      if (kind === 'sqlite') {
        await sql`create trigger fail_midway before insert on measurements when (select count(*) from measurements) >= 100 begin select raise(abort, 'disk full'); end`.execute(
          dbOf(service.store),
        );
      } else {
        // One COPY loads every sensor's rows, in sensor order: it fails on the last sensor's.
        const last = Math.max(...(await dbOf(service.store).selectFrom('sensors').select('sensor_id').execute()).map((s) => s.sensor_id));
        await sql`create function fail_midway() returns trigger language plpgsql as $$ begin raise exception 'disk full'; end $$`.execute(
          dbOf(service.store),
        );
        await sql`create trigger fail_midway before insert on measurements for each row when (new.sensor_id = ${sql.lit(last)}) execute function fail_midway()`.execute(
          dbOf(service.store),
        );
      }
      try {
        const res = await service.post('/Measurement/Random', { nb_measurements: 40_000 });
        expect(res.status).toBe(500);
        expect(res.body).toEqual({ detail: 'Internal Server Error' });
        expect((await exportCsv()).text).toBe(before);
      } finally {
        await sql`drop trigger fail_midway${kind === 'postgres' ? sql` on measurements` : sql``}`.execute(dbOf(service.store));
      }
    });

    it('refuses with 422 when there are no sensors', async () => {
      const empty = await startService(kind, { env: { SEED_DEFAULTS: 'false' } });
      try {
        const res = await empty.post('/Measurement/Random', {});
        expect(res.status).toBe(422);
        expect(res.body.detail[0].msg).toMatch(/no sensors/);
      } finally {
        await empty.close();
      }
    });
  });
});
