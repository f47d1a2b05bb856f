import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds, dbOf } from '../helpers/stores.js';
import { phSensorBody } from '../helpers/bodies.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const sensorBody = phSensorBody;
const pumpBody = {
  actuator_type: 'base_pump',
  condition_value: 5.5,
  activation_condition: 'low',
  activation_period: 60,
  activation_duration: 3,
};
const JSON_HEADERS = { 'content-type': 'application/json' };

describe.each(storeKinds())('input limits (%s)', (kind) => {
  let service: TestService;
  let sensor: number;
  let actuator: number;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
    sensor = (await service.post('/sensors/', sensorBody)).body.sensor_id;
    actuator = (await service.post('/actuators', { ...pumpBody, sensor_id: sensor })).body.actuator_id;
  });
  afterAll(() => service?.close());

  /** Everything a rejected request could have changed, read back through the API. */
  const snapshot = async () => ({
    measurements: (await service.get(`/measurements/export`)).text,
    prototypes: (await service.get('/prototypes')).body,
    sensors: (await service.get('/sensors/0')).body,
    actuators: (await service.get('/actuators/0')).body,
  });
  /** Sends a raw JSON text (numbers JSON.stringify cannot write, such as 1e400). */
  const send = (method: string, path: string, raw: string) => service.request(method, path, { raw, headers: JSON_HEADERS });
  const issueTypes = (body: { detail: { type: string }[] }) => body.detail.map((issue) => issue.type);

  describe('numeric strings are read in linear time', () => {
    // The quadratic pattern this replaced took hours on this body: the test's own time limit is what
    // catches it coming back, not a measured duration.
    it('refuses a 1 MiB "111…1x" number, while other requests keep being answered', { timeout: 60_000 }, async () => {
      const before = await snapshot();
      const digits = '1'.repeat(1024 * 1024 - 64) + 'x';
      const [big, health] = await Promise.all([
        send('POST', '/measurements', `{"sensor_id":${sensor},"value":"${digits}"}`),
        service.get('/healthz'),
      ]);
      expect(big.status).toBe(422);
      expect(big.body.detail).toEqual([{ loc: ['body', 'value'], msg: 'Input should be a valid number', type: 'float_parsing' }]);
      expect(health.status).toBe(200);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses numeric strings longer than 64 characters, in ids and values alike', async () => {
      const long = `${'0'.repeat(64)}1`;
      const res = await service.post('/measurements', { sensor_id: long, value: long });
      expect(res.status).toBe(422);
      expect(issueTypes(res.body)).toEqual(['int_parsing', 'float_parsing']);
      const atCap = await service.post('/measurements', { sensor_id: String(sensor).padStart(64, '0'), value: ' 6.5 ' });
      expect(atCap.status).toBe(200);
      expect(atCap.body.value).toBe(6.5);
      const query = await service.get(`/measurements/${sensor}?max_points=${'1'.repeat(8000)}x`);
      expect(query.status).toBe(422);
    });
  });

  describe('numbers are finite', () => {
    it('refuses 1e400 and -1e400 in a measurement, a batch, thresholds and actuator settings, and writes nothing', async () => {
      const before = await snapshot();
      const cases: [string, string, string][] = [
        ['POST', '/measurements', `{"sensor_id":${sensor},"value":1e400}`],
        ['POST', '/measurements', `{"sensor_id":${sensor},"value":-1e400}`],
        ['POST', '/measurements', `[{"sensor_id":${sensor},"value":1},{"sensor_id":${sensor},"value":-1e400}]`],
        ['POST', '/sensors/', JSON.stringify(sensorBody).replace('"threshold_critically_high":14', '"threshold_critically_high":1e400')],
        ['POST', '/sensors/', JSON.stringify(sensorBody).replace('"threshold_critically_low":0', '"threshold_critically_low":-1e400')],
        ['PATCH', '/sensors', `[{"sensor_id":${sensor},"threshold_critically_high":1e400}]`],
        [
          'POST',
          '/actuators',
          `{"actuator_type":"base_pump","sensor_id":${sensor},"condition_value":-1e400,"activation_condition":"low","activation_period":60,"activation_duration":3}`,
        ],
        [
          'POST',
          '/actuators',
          `{"actuator_type":"base_pump","sensor_id":${sensor},"condition_value":1,"activation_condition":"low","activation_period":1e400,"activation_duration":1e400}`,
        ],
        ['PATCH', '/actuators', `[{"actuator_id":${actuator},"condition_value":1e400}]`],
        ['PATCH', '/actuators', `[{"actuator_id":${actuator},"activation_duration":1e400}]`],
        ['POST', '/Measurement/Random', `{"nb_measurements":10,"deviation_rate":1e400}`],
      ];
      for (const [method, path, raw] of cases) {
        const res = await send(method, path, raw);
        expect({ method, path, raw, status: res.status }).toEqual({ method, path, raw, status: 422 });
        expect(issueTypes(res.body)).toContain('finite_number');
      }
      // Spelled as a string, too large a number is no number at all.
      const text = await service.post('/measurements', { sensor_id: sensor, value: '1e400' });
      expect(text.status).toBe(422);
      expect(await snapshot()).toEqual(before);
    });

    it('keeps non-finite numbers out of the store whatever path writes them', async () => {
      await expect(service.store.ingest([{ sensor_id: sensor, value: Infinity, timestamp: NOW }])).rejects.toThrow();
      await expect(service.store.ingest([{ sensor_id: sensor, value: Number.NaN, timestamp: NOW }])).rejects.toThrow();
      await expect(
        dbOf(service.store).updateTable('sensors').set({ threshold_critically_high: -Infinity }).where('sensor_id', '=', sensor).execute(),
      ).rejects.toThrow();
      await expect(
        dbOf(service.store).updateTable('actuators').set({ activation_period: Infinity }).where('actuator_id', '=', actuator).execute(),
      ).rejects.toThrow();
      const last = await service.get(`/measurements/${sensor}/last`);
      expect(last.status === 404 || Number.isFinite(last.body.value)).toBe(true);
      expect((await service.get(`/sensors/0`)).text).not.toMatch(/Infinity|NaN/);
      expect((await service.get(`/actuators/0`)).text).not.toMatch(/Infinity|NaN/);
    });
  });

  describe('the synthetic generator', () => {
    it('refuses a deviation rate above 100 and generates finite values at the widest thresholds', async () => {
      const wide = (
        await service.post('/sensors/', {
          ...sensorBody,
          threshold_critically_low: -1e308,
          threshold_low: -1e308,
          threshold_high: 1e308,
          threshold_critically_high: 1e308,
        })
      ).body.sensor_id;
      const before = await snapshot();
      const refused = await service.post('/Measurement/Random', { nb_measurements: 100, deviation_rate: 1e308 });
      expect(refused.status).toBe(422);
      expect(refused.body.detail[0]).toMatchObject({ loc: ['body', 'deviation_rate'], type: 'less_than_equal' });
      expect(await snapshot()).toEqual(before);

      // Synthetic data is refused while a pump of the tank is enabled: the pumps made above are disabled first.
      const pumps = (await service.get('/actuators/0')).body as { actuator_id: number }[];
      expect(
        (
          await service.patch(
            '/actuators',
            pumps.map((p) => ({ actuator_id: p.actuator_id, enabled: false })),
          )
        ).status,
      ).toBe(200);
      const sensors = (await service.get('/sensors/0')).body.length;
      const res = await service.post('/Measurement/Random', { nb_measurements: 200 * sensors, deviation_rate: 100, smoothing_factor: 0 });
      expect(res.status).toBe(200);
      const series = await service.get(`/measurements/${wide}`);
      expect(series.status).toBe(200);
      expect(series.body).toHaveLength(200);
      for (const m of series.body) expect(Number.isFinite(m.value)).toBe(true);
      // The walk reaches far out at this rate: values held at the largest double, never beyond.
      expect(Math.max(...series.body.map((m: { value: number }) => Math.abs(m.value)))).toBeGreaterThan(1e308);
      const downsampled = await service.get(`/measurements/${wide}?max_points=10`);
      expect(downsampled.status).toBe(200);
      // A second run replaces the first: the table holds nothing the generator cannot read back.
      expect((await service.post('/Measurement/Random', { nb_measurements: 10 })).status).toBe(200);
    });
  });

  describe('max_points', () => {
    it('is at most 100,000', async () => {
      const over = await service.get(`/measurements/${sensor}?max_points=100001`);
      expect(over.status).toBe(422);
      expect(over.body.detail).toEqual([
        { loc: ['query', 'max_points'], msg: 'Input should be less than or equal to 100000', type: 'less_than_equal' },
      ]);
      expect((await service.get(`/measurements/${sensor}?max_points=100000`)).status).toBe(200);
    });
  });

  describe('strings hold no NUL character', () => {
    it('refuses \\u0000 in every stored string field and writes nothing', async () => {
      const before = await snapshot();
      const users = (await service.get('/users/items/')).status;
      const cases: [string, string, unknown][] = [
        ['POST', '/prototypes', { prototype_id: 77, prototype_name: 'tank\u0000' }],
        ['POST', '/sensors/', { ...sensorBody, sensor_unit: 'p\u0000H' }],
        ['PATCH', '/sensors', [{ sensor_id: sensor, sensor_unit: '\u0000' }]],
        ['POST', '/actuators', { ...pumpBody, sensor_id: sensor, actuator_name: 'pump\u0000one' }],
        ['PATCH', '/actuators', [{ actuator_id: actuator, actuator_name: '\u0000' }]],
        ['POST', '/users/new/', { username: 'nul\u0000user', password: 'a long passphrase' }],
        ['POST', '/token', { username: 'nul\u0000user', password: 'a long passphrase' }],
      ];
      for (const [method, path, body] of cases) {
        const res = await service.request(method, path, { raw: JSON.stringify(body), headers: JSON_HEADERS });
        expect({ path, status: res.status }).toEqual({ path, status: 422 });
        expect(issueTypes(res.body).some((type) => type === 'string_nul' || type === 'string_pattern_mismatch')).toBe(true);
      }
      const form = await service.request('POST', '/users/new/', {
        raw: 'username=nul%00user&password=a+long+passphrase',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.status).toBe(422);
      expect(await snapshot()).toEqual(before);
      expect((await service.get('/users/items/')).status).toBe(users);
      expect((await service.get('/prototypes/77')).status).toBe(404);
    });

    it('refuses \\u0000 in the query string too', async () => {
      const res = await service.get(`/measurements/${sensor}?time_delta=P1D%00`);
      expect(res.status).toBe(422);
    });
  });

  describe('instants and windows lie within the years 1 to 9999', () => {
    it('refuses a measurement outside those years, also once its offset is applied', async () => {
      const before = await snapshot();
      for (const timestamp of ['0000-01-01T00:00:00Z', '0000-12-31T23:59:59.999Z', '0001-01-01T00:00:00+01:00']) {
        const res = await service.post('/measurements', { sensor_id: sensor, value: 1, timestamp });
        expect({ timestamp, status: res.status }).toEqual({ timestamp, status: 422 });
        expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'timestamp'], type: 'datetime_parsing' });
      }
      expect(await snapshot()).toEqual(before);
    });

    it('stores the first instant of year 1 and reads it back everywhere', async () => {
      const early = (await service.post('/sensors/', sensorBody)).body.sensor_id;
      const first = await service.post('/measurements', { sensor_id: early, value: 2, timestamp: '0001-01-01T00:00:00Z' });
      expect(first.status).toBe(200);
      expect(first.body.timestamp).toBe('0001-01-01T00:00:00.000Z');
      await service.post('/measurements', { sensor_id: early, value: 3, timestamp: '2026-11-22T11:00:00Z' });
      await service.post('/measurements', { sensor_id: early, value: 4, timestamp: '0500-06-01T00:00:00Z' });
      const last = await service.get(`/measurements/${early}/last`);
      expect(last.status).toBe(200);
      expect(last.body.value).toBe(3);
      const all = await service.get(`/measurements/${early}?start_time=0001-01-01T00:00:00Z&end_time=9999-12-31T23:59:59.999Z`);
      expect(all.body.map((m: { timestamp: string }) => m.timestamp)).toEqual([
        '0001-01-01T00:00:00.000Z',
        '0500-06-01T00:00:00.000Z',
        '2026-11-22T11:00:00.000Z',
      ]);
      const points = await service.get(`/measurements/${early}?max_points=2`);
      expect(points.status).toBe(200);
      expect(points.body.map((m: { value: number }) => m.value)).toEqual([2, 4]);
      const csv = await service.get(`/measurements/export?sensor_id=${early}`);
      expect(csv.text).toContain('0001-01-01T00:00:00.000Z');
    });

    it('refuses durations and window edges beyond those years', async () => {
      const cases = [
        'time_delta=P300000Y',
        'time_delta=99999999999999999999',
        'time_delta=P10000Y',
        'end_time=0001-01-01T00:00:00Z&time_delta=P10000Y',
        'end_time=0001-01-01T00:00:00Z&time_delta=PT1S',
        'start_time=0000-01-01T00:00:00Z',
        'end_time=10000-01-01T00:00:00Z',
      ];
      for (const query of cases) {
        const res = await service.get(`/measurements/${sensor}?${query}`);
        expect({ query, status: res.status }).toEqual({ query, status: 422 });
        expect(res.body.detail[0].loc[0]).toBe('query');
      }
      const exported = await service.get('/measurements/export?start_time=0000-06-01T00:00:00Z');
      expect(exported.status).toBe(422);
      // The widest window that fits is fine.
      expect((await service.get(`/measurements/${sensor}?end_time=9999-12-31T00:00:00Z&time_delta=P3650000D`)).status).toBe(200);
      expect((await service.get(`/measurements/${sensor}?time_delta=P2000Y`)).status).toBe(200);
    });
  });
});
