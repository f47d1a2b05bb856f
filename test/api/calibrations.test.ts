import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/domain/alert.js';
import { phSensorBody } from '../helpers/bodies.js';
import { manualServiceTimers } from '../helpers/manual-timers.js';
import { startService, type TestService } from '../helpers/service.js';
import { openStream } from '../helpers/sse.js';
import { dbOf, type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

/** Calibrations and the calibration reminder (docs/api.md §15) through HTTP, on both stores. */
const NOW = Date.UTC(2026, 10, 22, 12);
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const points = (...pairs: [number, number][]) => pairs.map(([reference, reading]) => ({ reference, reading }));

async function calibrationRows(service: TestService): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from calibrations`.execute(dbOf(service.store));
  return Number(rows[0].n);
}

describe.each(storeKinds())('calibrations (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind, { now: NOW });
  });
  afterAll(() => service?.close());

  const newSensor = async (fields: Record<string, unknown> = {}) => {
    const res = await service.post('/sensors/', { ...phSensorBody, ...fields });
    expect(res.status).toBe(200);
    return res.body as {
      sensor_id: number;
      calibrated_at: string | null;
      calibration_due: string | null;
      calibration_interval: number | null;
    };
  };
  const calibrate = (sensorId: number, body: Record<string, unknown>) => service.post(`/sensors/${sensorId}/calibrations`, body);
  const sensorOf = async (sensorId: number) => (await service.store.sensors.get(sensorId))!;

  it('records a calibration with the fitted line and accepts it; the sensor’s calibrated_at becomes its time', async () => {
    const { sensor_id } = await newSensor();
    const res = await calibrate(sensor_id, { points: points([4, 4.5], [7, 7.5]), note: 'buffers 4 and 7' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      calibration_id: expect.any(Number),
      sensor_id,
      calibrated_at: iso(NOW),
      points: points([4, 4.5], [7, 7.5]),
      slope: 1,
      offset: 0.5,
      accepted: true,
      note: 'buffers 4 and 7',
      author: null,
    });
    expect(await sensorOf(sensor_id)).toMatchObject({ calibrated_at: iso(NOW), calibration_due: null, calibration_interval: null });
    const listed = await service.get(`/sensors/${sensor_id}/calibrations`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([res.body]);
  });

  it('one point: slope 1, offset reading − reference, accepted', async () => {
    const { sensor_id } = await newSensor();
    const res = await calibrate(sensor_id, { points: points([7, 7.25]) });
    expect(res.body).toMatchObject({ slope: 1, offset: 0.25, accepted: true, note: null });
  });

  it('a refused calibration is kept and listed, and changes nothing on the sensor', async () => {
    const { sensor_id } = await newSensor({ calibration_interval: 30 });
    const accepted = await calibrate(sensor_id, { points: points([4, 4], [7, 7]), calibrated_at: iso(NOW - DAY) });
    expect(accepted.body.accepted).toBe(true);
    const refused = await calibrate(sensor_id, { points: points([4, 4], [7, 6.4]) });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ accepted: false });
    expect(refused.body.slope).toBeCloseTo(0.8, 12);
    expect(await sensorOf(sensor_id)).toMatchObject({ calibrated_at: iso(NOW - DAY), calibration_due: iso(NOW + 29 * DAY) });
    expect((await service.get(`/sensors/${sensor_id}/calibrations`)).body.map((c: { accepted: boolean }) => c.accepted)).toEqual([
      false,
      true,
    ]);
  });

  it('lists newest first by calibrated_at; one dated back is listed in its place and leaves calibrated_at alone', async () => {
    const { sensor_id } = await newSensor();
    const one = points([4, 4], [7, 7]);
    const a = (await calibrate(sensor_id, { points: one, calibrated_at: iso(NOW - 2 * DAY) })).body;
    const b = (await calibrate(sensor_id, { points: one, calibrated_at: iso(NOW) })).body;
    const c = (await calibrate(sensor_id, { points: one, calibrated_at: iso(NOW - DAY) })).body;
    const d = (await calibrate(sensor_id, { points: one, calibrated_at: iso(NOW) })).body;
    expect((await sensorOf(sensor_id)).calibrated_at).toBe(iso(NOW));
    const list = (await service.get(`/sensors/${sensor_id}/calibrations`)).body as { calibration_id: number }[];
    expect(list.map((x) => x.calibration_id)).toEqual([d, b, c, a].map((x) => x.calibration_id));
    expect(
      (await service.get(`/sensors/${sensor_id}/calibrations?limit=2`)).body.map((x: { calibration_id: number }) => x.calibration_id),
    ).toEqual([d.calibration_id, b.calibration_id]);
  });

  it('calibration_interval: never calibrated, due from when it is set; then calibrated_at + interval; off: null', async () => {
    const sensor = await newSensor({ calibration_interval: 30 });
    expect(sensor).toMatchObject({ calibration_interval: 30, calibrated_at: null, calibration_due: iso(NOW) });
    const id = sensor.sensor_id;
    service.clock.now = NOW + 1000;
    try {
      // Another field changed, or the interval changed while never calibrated: still due from when it was set.
      const renamed = await service.patch('/sensors', [{ sensor_id: id, sensor_name: 'tank pH', calibration_interval: 14 }]);
      expect(renamed.status).toBe(200);
      expect(renamed.body[0]).toMatchObject({ calibration_interval: 14, calibration_due: iso(NOW) });
      expect((await calibrate(id, { points: points([7, 7]) })).status).toBe(200);
      expect(await sensorOf(id)).toMatchObject({ calibrated_at: iso(NOW + 1000), calibration_due: iso(NOW + 1000 + 14 * DAY) });
      const halfDay = await service.patch('/sensors', [{ sensor_id: id, calibration_interval: 0.5 }]);
      expect(halfDay.body[0]).toMatchObject({ calibration_due: iso(NOW + 1000 + DAY / 2) });
      const off = await service.patch('/sensors', [{ sensor_id: id, calibration_interval: null }]);
      expect(off.body[0]).toMatchObject({ calibration_interval: null, calibrated_at: iso(NOW + 1000), calibration_due: null });
      // GET /sensors/{prototype_id} shows the same.
      const listed = (await service.get('/sensors/0')).body.find((s: { sensor_id: number }) => s.sensor_id === id);
      expect(listed).toMatchObject({ calibration_interval: null, calibrated_at: iso(NOW + 1000), calibration_due: null });
    } finally {
      service.clock.now = NOW;
    }
  });

  it('publishes the sensor changed by an accepted calibration, not by a refused one', async () => {
    const { sensor_id } = await newSensor({ calibration_interval: 7 });
    const stream = await openStream(`${service.url}/events?types=sensor&sensor_id=${sensor_id}`);
    try {
      expect((await calibrate(sensor_id, { points: points([4, 4], [7, 5]) })).body.accepted).toBe(false);
      expect((await calibrate(sensor_id, { points: points([4, 4], [7, 7]) })).body.accepted).toBe(true);
      const event = await stream.next((e) => e.event === 'sensor');
      expect(JSON.parse(event.data)).toMatchObject({ sensor_id, calibrated_at: iso(NOW), calibration_due: iso(NOW + 7 * DAY) });
      expect(stream.events).toHaveLength(1);
    } finally {
      stream.close();
    }
  });

  describe('bad input: 422 or 404, nothing written', () => {
    let sensorId: number;
    beforeAll(async () => {
      sensorId = (await newSensor({ calibration_interval: 10 })).sensor_id;
    });
    const cases: [string, unknown, (string | number)[]][] = [
      ['no points', { points: [] }, ['body', 'points']],
      ['six points', { points: points([1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6]) }, ['body', 'points']],
      ['no points field', { note: 'x' }, ['body', 'points']],
      ['a point without its reading', { points: [{ reference: 7 }] }, ['body', 'points', 0, 'reading']],
      ['a reference that is not a number', { points: [{ reference: 'seven', reading: 7 }] }, ['body', 'points', 0, 'reference']],
      ['a reading that overflows', { raw: '{"points":[{"reference":7,"reading":1e400}]}' }, ['body', 'points', 0, 'reading']],
      ['every reference equal', { points: points([7, 7], [7, 7.2]) }, ['body', 'points']],
      ['points too large to fit', { points: points([1e308, 1e308], [-1e308, -1e308]) }, ['body', 'points']],
      [
        'calibrated_at more than 5 minutes ahead',
        { points: points([7, 7]), calibrated_at: iso(NOW + 5 * 60_000 + 1) },
        ['body', 'calibrated_at'],
      ],
      ['calibrated_at that is no date-time', { points: points([7, 7]), calibrated_at: 'yesterday' }, ['body', 'calibrated_at']],
      ['an empty note', { points: points([7, 7]), note: '' }, ['body', 'note']],
      ['a note over 2000 characters', { points: points([7, 7]), note: 'x'.repeat(2001) }, ['body', 'note']],
    ];
    it.each(cases)('%s → 422', async (_name, body, loc) => {
      const before = [await calibrationRows(service), await sensorOf(sensorId)];
      const raw = (body as { raw?: string }).raw;
      const res = raw
        ? await service.request('POST', `/sensors/${sensorId}/calibrations`, { raw, headers: { 'content-type': 'application/json' } })
        : await calibrate(sensorId, body as Record<string, unknown>);
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
      expect([await calibrationRows(service), await sensorOf(sensorId)]).toEqual(before);
    });

    it('calibrated_at exactly 5 minutes ahead is taken', async () => {
      const { sensor_id } = await newSensor();
      expect((await calibrate(sensor_id, { points: points([7, 7]), calibrated_at: iso(NOW + 5 * 60_000) })).status).toBe(200);
    });

    it('an unknown sensor → 404; a bad sensor id → 422', async () => {
      const before = await calibrationRows(service);
      expect((await calibrate(999_999, { points: points([7, 7]) })).status).toBe(404);
      expect((await service.get('/sensors/999999/calibrations')).status).toBe(404);
      expect((await calibrate('x' as unknown as number, { points: points([7, 7]) })).status).toBe(422);
      expect((await service.get('/sensors/x/calibrations')).status).toBe(422);
      expect((await service.get(`/sensors/${sensorId}/calibrations?limit=0`)).status).toBe(422);
      expect((await service.get(`/sensors/${sensorId}/calibrations?limit=1001`)).status).toBe(422);
      expect(await calibrationRows(service)).toBe(before);
    });

    it.each([
      ['0', 0],
      ['negative', -1],
      ['over ten years', 3651],
      ['not a number', 'thirty'],
    ])('calibration_interval %s → 422 on create and on patch', async (_name, value) => {
      const sensors = (await service.get('/sensors/0')).body.length;
      const created = await service.post('/sensors/', { ...phSensorBody, calibration_interval: value });
      expect(created.status).toBe(422);
      expect(created.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(['body', 'calibration_interval']);
      expect((await service.get('/sensors/0')).body.length).toBe(sensors);
      const before = await sensorOf(sensorId);
      const patched = await service.patch('/sensors', [{ sensor_id: sensorId, calibration_interval: value }]);
      expect(patched.status).toBe(422);
      expect(await sensorOf(sensorId)).toEqual(before);
    });

    it('read-only fields are ignored on create and patch', async () => {
      const created = await newSensor({ calibrated_at: iso(NOW - DAY), calibration_due: iso(NOW + DAY) });
      expect(created).toMatchObject({ calibrated_at: null, calibration_due: null });
      const patched = await service.patch('/sensors', [{ sensor_id: created.sensor_id, calibrated_at: iso(NOW) }]);
      expect(patched.body[0]).toMatchObject({ calibrated_at: null });
    });
  });

  it('deleting a sensor deletes its calibrations', async () => {
    const { sensor_id } = await newSensor();
    await calibrate(sensor_id, { points: points([7, 7]) });
    const before = await calibrationRows(service);
    expect((await service.request('DELETE', `/sensors/${sensor_id}`)).status).toBe(204);
    expect(await calibrationRows(service)).toBe(before - 1);
  });
});

describe.each(storeKinds())('the calibration_due alert (%s)', (kind) => {
  let service: TestService;
  let manual: ReturnType<typeof manualServiceTimers>;
  let database: ScratchDatabase;

  const start = async (at: number) => {
    manual = manualServiceTimers(at);
    service = await startService(kind, { database, now: at, app: { alerts: { timers: manual.timers } } });
    manual.follow(service);
    await service.app.recordsSettled();
  };
  beforeAll(async () => {
    database = await scratchDatabase(kind);
  });
  afterEach(async () => {
    await service?.close();
  });
  afterAll(async () => {
    await database?.drop();
  });

  const settled = async () => {
    await service.app.recordsSettled();
    await service.app.alertsSettled();
  };
  const dueAlerts = async (sensorId: number): Promise<Alert[]> =>
    ((await service.get(`/alerts?state=all&sensor_id=${sensorId}`)).body as Alert[]).filter((a) => a.kind === 'calibration_due');
  const calibrate = async (sensorId: number, body: Record<string, unknown>) => {
    const res = await service.post(`/sensors/${sensorId}/calibrations`, body);
    expect(res.status).toBe(200);
    await settled();
    return res.body as { accepted: boolean };
  };

  it('never calibrated: raised at once; an accepted calibration clears it; past due again, raised by the timer at that moment', async () => {
    await start(NOW);
    const created = await service.post('/sensors/', { ...phSensorBody, calibration_interval: 2 });
    const sensorId = created.body.sensor_id as number;
    await settled();
    const [raised] = await dueAlerts(sensorId);
    expect(raised).toMatchObject({
      kind: 'calibration_due',
      severity: 'warning',
      state: 'active',
      sensor_id: sensorId,
      actuator_id: null,
      prototype_id: 0,
      raised_at: iso(NOW),
      value: null,
    });
    expect(
      (await service.get('/prototypes/0/status')).body.sensors.find(
        (s: { sensor: { sensor_id: number } }) => s.sensor.sensor_id === sensorId,
      ).alerts,
    ).toEqual([raised]);

    // A refused calibration does not clear it; an accepted one does.
    expect((await calibrate(sensorId, { points: points([4, 4], [7, 5]) })).accepted).toBe(false);
    expect((await dueAlerts(sensorId)).map((a) => a.state)).toEqual(['active']);
    expect((await calibrate(sensorId, { points: points([4, 4], [7, 7]) })).accepted).toBe(true);
    expect((await dueAlerts(sensorId)).map((a) => [a.state, a.cleared_at])).toEqual([['cleared', iso(NOW)]]);

    // Two days later, to the millisecond: raised by its alarm, dated at the due instant.
    const due = NOW + 2 * DAY;
    expect(manual.due()).toContain(due);
    manual.advanceTo(due - 1);
    await settled();
    expect((await dueAlerts(sensorId)).filter((a) => a.state === 'active')).toEqual([]);
    manual.advanceTo(due);
    await settled();
    const active = (await dueAlerts(sensorId)).filter((a) => a.state === 'active');
    expect(active.map((a) => a.raised_at)).toEqual([iso(due)]);
  });

  it('is kept apart from the sensor’s level alerts: readings back at ok do not clear it', async () => {
    await start(NOW);
    const sensorId = (await service.post('/sensors/', { ...phSensorBody, calibration_interval: 30 })).body.sensor_id as number;
    await settled();
    for (const [value, at] of [
      [8, NOW],
      [6, NOW + 1000],
      [6, NOW + 120_000],
    ] as const) {
      service.clock.now = at;
      expect((await service.post('/measurements', { sensor_id: sensorId, value, timestamp: iso(at) })).status).toBe(200);
      await settled();
    }
    manual.advanceTo(NOW + 180_000);
    await settled();
    const alerts = (await service.get(`/alerts?state=all&sensor_id=${sensorId}`)).body as Alert[];
    expect(alerts.map((a) => [a.kind, a.state]).sort()).toEqual([
      ['calibration_due', 'active'],
      ['high', 'cleared'],
    ]);
  });

  it('a shorter interval makes it due now; turning the reminder off clears it', async () => {
    await start(NOW);
    const sensorId = (await service.post('/sensors/', { ...phSensorBody, calibration_interval: 30 })).body.sensor_id as number;
    await settled();
    await calibrate(sensorId, { points: points([7, 7]), calibrated_at: iso(NOW - 10 * DAY) });
    expect((await dueAlerts(sensorId)).map((a) => a.state)).toEqual(['cleared']);
    expect((await service.patch('/sensors', [{ sensor_id: sensorId, calibration_interval: 7 }])).status).toBe(200);
    await settled();
    expect((await dueAlerts(sensorId)).filter((a) => a.state === 'active').map((a) => a.raised_at)).toEqual([iso(NOW - 3 * DAY)]);
    expect((await service.patch('/sensors', [{ sensor_id: sensorId, calibration_interval: null }])).status).toBe(200);
    await settled();
    expect((await dueAlerts(sensorId)).map((a) => a.state)).toEqual(['cleared', 'cleared']);
  });

  it('survives a restart: an alarm set again at start, a reminder that fell due while stopped raised at start', async () => {
    await start(NOW);
    const soon = (await service.post('/sensors/', { ...phSensorBody, calibration_interval: 1 })).body.sensor_id as number;
    const later = (await service.post('/sensors/', { ...phSensorBody, calibration_interval: 5 })).body.sensor_id as number;
    await settled();
    await calibrate(soon, { points: points([7, 7]) });
    await calibrate(later, { points: points([7, 7]) });
    expect((await dueAlerts(soon)).map((a) => a.state)).toEqual(['cleared']);
    await service.close();

    // Back two days later: the first fell due while stopped; the second's alarm is set again.
    await start(NOW + 2 * DAY);
    expect((await dueAlerts(soon)).filter((a) => a.state === 'active').map((a) => a.raised_at)).toEqual([iso(NOW + DAY)]);
    expect((await dueAlerts(later)).filter((a) => a.state === 'active')).toEqual([]);
    expect(manual.due()).toContain(NOW + 5 * DAY);
    manual.advanceTo(NOW + 5 * DAY);
    await settled();
    expect((await dueAlerts(later)).filter((a) => a.state === 'active').map((a) => a.raised_at)).toEqual([iso(NOW + 5 * DAY)]);

    // Calibrated behind this process's back (nothing published): cleared at the next start.
    await service.store.sensors.calibrated(soon, NOW + 2 * DAY, NOW + 3 * DAY);
    await service.close();
    await start(NOW + 2 * DAY + 1000);
    expect((await dueAlerts(soon)).map((a) => a.state)).toEqual(['cleared', 'cleared']);
  });
});
