import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const H = 3600_000;

describe.each(storeKinds())('measurements (%s)', (kind) => {
  let service: TestService;
  let sensor: number;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
  });
  afterAll(() => service?.close());
  beforeEach(async () => {
    // A fresh sensor per test keeps the tests independent on one store.
    const res = await service.post('/sensors/', phSensorBody);
    sensor = res.body.sensor_id;
  });

  const all = async (id = sensor) =>
    (await service.get(`/measurements/${id}`)).body as { value: number; timestamp: string; measurement_id: number }[];

  describe('POST /measurements', () => {
    it('records one measurement as the sensor scripts send it (id as a string, no timestamp)', async () => {
      const res = await service.post('/measurements', { value: 6.4, sensor_id: String(sensor) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ measurement_id: expect.any(Number), sensor_id: sensor, value: 6.4, timestamp: iso(NOW) });
      expect(await all()).toEqual([res.body]);
    });

    it('stores the client timestamp in UTC, whatever its offset, and the value unrounded', async () => {
      const res = await service.post('/measurements', { sensor_id: sensor, value: 0.1 + 0.2, timestamp: '2026-11-22T10:30:00.250+02:00' });
      expect(res.status).toBe(200);
      expect(res.body.timestamp).toBe('2026-11-22T08:30:00.250Z');
      expect(res.body.value).toBe(0.1 + 0.2);
      const naive = await service.post('/measurements', { sensor_id: sensor, value: 1, timestamp: '2026-11-22T09:00:00' });
      expect(naive.body.timestamp).toBe('2026-11-22T09:00:00.000Z');
      // Read back to the millisecond, as stored.
      expect((await all()).map((m) => m.timestamp)).toEqual(['2026-11-22T08:30:00.250Z', '2026-11-22T09:00:00.000Z']);
      const csv = (await service.get(`/measurements/export?sensor_id=${sensor}`)).text;
      expect(csv).toContain(`,2026-11-22T08:30:00.250Z,`);
    });

    it('records a batch in request order and answers with the array', async () => {
      const batch = [
        { sensor_id: sensor, value: 3, timestamp: iso(NOW - 3000) },
        { sensor_id: sensor, value: 1, timestamp: iso(NOW - 1000) },
        { sensor_id: String(sensor), value: 2, timestamp: iso(NOW - 2000) },
      ];
      const res = await service.post('/measurements', batch);
      expect(res.status).toBe(200);
      expect(res.body.map((m: { value: number }) => m.value)).toEqual([3, 1, 2]);
      expect((await all()).map((m) => m.value)).toEqual([3, 2, 1]);
    });

    it('accepts a timestamp up to 5 minutes ahead and refuses one beyond', async () => {
      expect((await service.post('/measurements', { sensor_id: sensor, value: 1, timestamp: iso(NOW + 5 * 60_000) })).status).toBe(200);
      const res = await service.post('/measurements', { sensor_id: sensor, value: 2, timestamp: iso(NOW + 5 * 60_000 + 1) });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'timestamp']);
      expect((await all()).map((m) => m.value)).toEqual([1]);
    });

    it.each([
      ['a missing value', { sensor_id: 'S' }, ['body', 'value']],
      ['a non-numeric value', { sensor_id: 'S', value: 'high' }, ['body', 'value']],
      ['a null value', { sensor_id: 'S', value: null }, ['body', 'value']],
      ['a boolean value', { sensor_id: 'S', value: true }, ['body', 'value']],
      ['an infinite value given as text', { sensor_id: 'S', value: '1e999' }, ['body', 'value']],
      ['a negative infinite value given as text', { sensor_id: 'S', value: '-1e400' }, ['body', 'value']],
      ['a missing sensor_id', { value: 1 }, ['body', 'sensor_id']],
      ['a non-numeric sensor_id', { sensor_id: 'two', value: 1 }, ['body', 'sensor_id']],
      ['a fractional sensor_id', { sensor_id: 1.5, value: 1 }, ['body', 'sensor_id']],
      ['a bad timestamp', { sensor_id: 'S', value: 1, timestamp: 'yesterday' }, ['body', 'timestamp']],
      ['an impossible date', { sensor_id: 'S', value: 1, timestamp: '2026-02-30T00:00:00Z' }, ['body', 'timestamp']],
    ])('refuses %s with 422 and writes nothing', async (_name, body, loc) => {
      const withSensor = JSON.parse(JSON.stringify(body).replace('"S"', String(sensor)));
      const res = await service.post('/measurements', withSensor);
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
      expect(await all()).toEqual([]);
    });

    it('answers 404 for an unknown sensor and writes nothing', async () => {
      const res = await service.post('/measurements', { sensor_id: 99_999, value: 1 });
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe('Sensor 99999 not found');
    });

    it('is all-or-nothing for a batch: one unknown sensor or one bad element and nothing is written', async () => {
      const good = { sensor_id: sensor, value: 1 };
      const missing = await service.post('/measurements', [good, good, { sensor_id: 99_999, value: 1 }]);
      expect(missing.status).toBe(404);
      const bad = await service.post('/measurements', [good, { sensor_id: sensor, value: 'x' }, good]);
      expect(bad.status).toBe(422);
      expect(bad.body.detail).toEqual([expect.objectContaining({ loc: ['body', 1, 'value'] })]);
      const infinite = await service.post('/measurements', [good, good, { sensor_id: sensor, value: '1e999' }]);
      expect(infinite.status).toBe(422);
      expect(infinite.body.detail).toEqual([expect.objectContaining({ loc: ['body', 2, 'value'], type: 'float_parsing' })]);
      const future = await service.post('/measurements', [good, { sensor_id: sensor, value: 2, timestamp: iso(NOW + H) }]);
      expect(future.status).toBe(422);
      expect(future.body.detail[0].loc).toEqual(['body', 1, 'timestamp']);
      expect(await all()).toEqual([]);
    });

    it('takes batches of 1..10,000', async () => {
      expect((await service.post('/measurements', [])).status).toBe(422);
      const big = Array.from({ length: 10_000 }, (_, i) => ({ sensor_id: sensor, value: i, timestamp: iso(NOW - 10_000_000 + i * 1000) }));
      const res = await service.post('/measurements', big);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(10_000);
      expect(res.body[9_999].value).toBe(9_999);
      const tooBig = await service.post('/measurements', [...big, big[0]]);
      expect(tooBig.status).toBe(422);
      expect((await all()).length).toBe(10_000);
    });
  });

  describe('GET /measurements/{sensor_id}', () => {
    const seed = async (offsetsH: number[]) => {
      await service.post(
        '/measurements',
        offsetsH.map((h, i) => ({ sensor_id: sensor, value: i, timestamp: iso(NOW - h * H) })),
      );
    };
    const window = async (query: string) => {
      const res = await service.get(`/measurements/${sensor}?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as { timestamp: string }[]).map((m) => (NOW - Date.parse(m.timestamp)) / H);
    };

    it('answers [] for a sensor without measurements and 404 for an unknown one', async () => {
      expect((await service.get(`/measurements/${sensor}`)).body).toEqual([]);
      const res = await service.get('/measurements/99999');
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe('Sensor 99999 not found');
      expect((await service.get('/measurements/abc')).status).toBe(422);
    });

    it('answers a window read again as the store holds it now: a new reading, a deleted one, a deleted sensor', async () => {
      await seed([3, 2, 1]);
      const values = async () => {
        const res = await service.get(`/measurements/${sensor}?time_delta=P1D`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return (res.body as { value: number }[]).map((m) => m.value);
      };
      expect(await values()).toEqual([0, 1, 2]);
      try {
        // The same window a moment later, as a dashboard polls it.
        service.clock.now = NOW + 1000;
        expect(await values()).toEqual([0, 1, 2]);
        const added = await service.post('/measurements', { sensor_id: sensor, value: 9, timestamp: iso(NOW + 500) });
        expect(await values()).toEqual([0, 1, 2, 9]);
        expect((await service.request('DELETE', `/measurements/${added.body.measurement_id}`)).status).toBe(204);
        expect(await values()).toEqual([0, 1, 2]);
        expect((await service.request('DELETE', `/sensors/${sensor}?cascade=true`)).status).toBe(204);
        expect((await service.get(`/measurements/${sensor}?time_delta=P1D`)).status).toBe(404);
      } finally {
        service.clock.now = NOW;
      }
    });

    it('returns everything ascending by timestamp, ties by id', async () => {
      await seed([5, 1, 3]);
      await service.post('/measurements', { sensor_id: sensor, value: 100, timestamp: iso(NOW - 3 * H) });
      const res = (await service.get(`/measurements/${sensor}`)).body as { value: number; measurement_id: number }[];
      expect(res.map((m) => m.value)).toEqual([0, 2, 100, 1]);
      expect(res[1].measurement_id).toBeLessThan(res[2].measurement_id);
    });

    it('time_delta selects [now - delta, now], in every accepted form', async () => {
      await seed([200, 48, 24, 23, 2, 0]);
      expect(await window('time_delta=P1D')).toEqual([24, 23, 2, 0]);
      expect(await window('time_delta=1%20day,%2000:00:00')).toEqual([24, 23, 2, 0]);
      expect(await window('time_delta=07d,00:00:00')).toEqual([48, 24, 23, 2, 0]);
      expect(await window('time_delta=02:00:00')).toEqual([2, 0]);
      expect(await window('time_delta=7200')).toEqual([2, 0]);
      expect(await window('time_delta=1d')).toEqual([24, 23, 2, 0]);
    });

    it('start_time and end_time select [start, end)', async () => {
      await seed([10, 5, 3, 1]);
      expect(await window(`start_time=${iso(NOW - 5 * H)}&end_time=${iso(NOW - H)}`)).toEqual([5, 3]);
      expect(await window(`start_time=${iso(NOW - 5 * H)}`)).toEqual([5, 3, 1]);
      expect(await window(`end_time=${iso(NOW - 3 * H)}`)).toEqual([10, 5]);
      expect(await window(`start_time=${iso(NOW - 5 * H)}&end_time=${iso(NOW - 5 * H)}`)).toEqual([]);
    });

    it('time_delta with end_time selects [end - delta, end)', async () => {
      await seed([10, 5, 3, 1]);
      expect(await window(`end_time=${iso(NOW - H)}&time_delta=PT4H`)).toEqual([5, 3]);
    });

    it.each([
      ['time_delta with start_time', `time_delta=P1D&start_time=${iso(NOW - H)}`, ['query', 'time_delta']],
      ['start_time after end_time', `start_time=${iso(NOW)}&end_time=${iso(NOW - H)}`, ['query', 'start_time']],
      ['a negative duration', 'time_delta=-P1D', ['query', 'time_delta']],
      ['a garbage duration', 'time_delta=soon', ['query', 'time_delta']],
      ['a bad start_time', 'start_time=yesterday', ['query', 'start_time']],
      ['max_points below 2', 'max_points=1', ['query', 'max_points']],
      ['a non-integer max_points', 'max_points=ten', ['query', 'max_points']],
    ])('refuses %s with 422', async (_name, query, loc) => {
      const res = await service.get(`/measurements/${sensor}?${query}`);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(loc);
    });

    it('returns windows longer than one read page whole, in order (streamed)', async () => {
      const at = (i: number) => iso(NOW - 20_000_000 + i * 1000);
      // Two batches, the later times first, so insertion order is not time order.
      await service.post(
        '/measurements',
        Array.from({ length: 10_000 }, (_, i) => ({ sensor_id: sensor, value: i + 2000, timestamp: at(i + 2000) })),
      );
      await service.post(
        '/measurements',
        Array.from({ length: 2000 }, (_, i) => ({ sensor_id: sensor, value: i, timestamp: at(i) })),
      );
      const res = await service.get(`/measurements/${sensor}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.body).toHaveLength(12_000);
      expect(res.body.map((m: { value: number }) => m.value)).toEqual(Array.from({ length: 12_000 }, (_, i) => i));
      expect(res.body[11_999]).toEqual({ measurement_id: expect.any(Number), sensor_id: sensor, value: 11_999, timestamp: at(11_999) });
      const window = await service.get(`/measurements/${sensor}?start_time=${at(1500)}&end_time=${at(8500)}`);
      expect(window.body.map((m: { value: number }) => m.value)).toEqual(Array.from({ length: 7000 }, (_, i) => i + 1500));
    });

    it('pages through many rows that share one timestamp without losing or repeating any', async () => {
      // Received together, so all stamped with the same instant: the pages split on ids alone.
      await service.post(
        '/measurements',
        Array.from({ length: 10_000 }, (_, i) => ({ sensor_id: sensor, value: i })),
      );
      await service.post(
        '/measurements',
        Array.from({ length: 3000 }, (_, i) => ({ sensor_id: sensor, value: 10_000 + i, timestamp: iso(NOW - H) })),
      );
      const res = (await service.get(`/measurements/${sensor}`)).body as { value: number; measurement_id: number; timestamp: string }[];
      expect(res.map((m) => m.value)).toEqual([
        ...Array.from({ length: 3000 }, (_, i) => 10_000 + i),
        ...Array.from({ length: 10_000 }, (_, i) => i),
      ]);
      expect(new Set(res.map((m) => m.measurement_id)).size).toBe(13_000);
      const recent = (await service.get(`/measurements/${sensor}?start_time=${iso(NOW)}`)).body as { value: number }[];
      expect(recent.map((m) => m.value)).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
    });

    it('downsamples to max_points keeping a spike, and returns everything when the window is small', async () => {
      const rows = Array.from({ length: 2000 }, (_, i) => ({
        sensor_id: sensor,
        value: i === 1234 ? 99 : 6.5,
        timestamp: iso(NOW - 10_000_000 + i * 1000),
      }));
      await service.post('/measurements', rows);
      const res = await service.get(`/measurements/${sensor}?max_points=50`);
      expect(res.body.length).toBeLessThanOrEqual(50);
      expect(res.body.length).toBeGreaterThan(2);
      expect(res.body.map((m: { value: number }) => m.value)).toContain(99);
      expect((await service.get(`/measurements/${sensor}?max_points=5000`)).body).toHaveLength(2000);
    });
  });

  describe('GET /measurements/{sensor_id}/last', () => {
    it('is the newest by timestamp, not by insertion, ties by the highest id', async () => {
      await service.post('/measurements', { sensor_id: sensor, value: 1, timestamp: iso(NOW - H) });
      await service.post('/measurements', { sensor_id: sensor, value: 2, timestamp: iso(NOW - 2 * H) });
      expect((await service.get(`/measurements/${sensor}/last`)).body.value).toBe(1);
      await service.post('/measurements', { sensor_id: sensor, value: 3, timestamp: iso(NOW - H) });
      expect((await service.get(`/measurements/${sensor}/last`)).body).toMatchObject({ value: 3, timestamp: iso(NOW - H) });
    });

    it('answers 404 saying whether the sensor is unknown or has no measurements', async () => {
      const empty = await service.get(`/measurements/${sensor}/last`);
      expect(empty.status).toBe(404);
      expect(empty.body.detail).toBe(`Sensor ${sensor} has no measurements`);
      const unknown = await service.get('/measurements/99999/last');
      expect(unknown.status).toBe(404);
      expect(unknown.body.detail).toBe('Sensor 99999 not found');
    });
  });
});
