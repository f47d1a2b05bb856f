import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { changeBus } from '../../src/core/bus.js';
import type { Alert } from '../../src/domain/alert.js';
import { liveService } from '../helpers/sse.js';
import { storeKinds, dbOf } from '../helpers/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();
/** Thresholds 10 ≤ 20 ≤ 30 ≤ 40: below 10 critically low, below 20 low, above 30 high, above 40 critically high. */
const SENSOR = {
  sensor_type: 'temperature',
  sensor_unit: 'Celsius',
  threshold_critically_low: 10,
  threshold_low: 20,
  threshold_high: 30,
  threshold_critically_high: 40,
};

describe.each(storeKinds())('alerts (%s)', (kind) => {
  const bus = changeBus();
  const { service, manual, open } = liveService(kind, NOW, (timers) => ({
    bus,
    env: { STALE_AFTER: 'PT1H', ALERT_CLEAR_AFTER: 'PT1M' },
    app: { alerts: { timers } },
  }));
  let nextPrototype = 100;

  const newSensor = async () => {
    const prototype_id = nextPrototype++;
    expect((await service.post('/prototypes', { prototype_id, prototype_name: `tank ${prototype_id}` })).status).toBe(200);
    const sensor = await service.post('/sensors/', { ...SENSOR, prototype_id });
    expect(sensor.status).toBe(200);
    return { prototype_id, sensor_id: sensor.body.sensor_id as number };
  };
  /** Posts measurements (value, or [value, timestamp]) and waits until their alerts are evaluated. */
  const measure = async (sensor_id: number, ...readings: (number | [number, number])[]) => {
    const body = readings.map((r) =>
      typeof r === 'number'
        ? { sensor_id, value: r, timestamp: iso(service.clock.now as number) }
        : { sensor_id, value: r[0], timestamp: iso(r[1]) },
    );
    const res = await service.post('/measurements', body.length === 1 ? body[0] : body);
    expect(res.status).toBe(200);
    await service.app.alertsSettled();
    return res.body;
  };
  const alertsOf = async (sensor_id: number, state = 'all'): Promise<Alert[]> => {
    const res = await service.get(`/alerts?sensor_id=${sensor_id}&state=${state}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const advanceTo = async (at: number) => {
    manual.advanceTo(at);
    await service.app.alertsSettled();
  };
  const alertCount = async () =>
    Number((await sql<{ n: number }>`select count(*) as n from alerts`.execute(dbOf(service.store))).rows[0].n);

  it('a value equal to a threshold is not beyond it: no alert at 20, 30; one just past each', async () => {
    const { sensor_id } = await newSensor();
    await measure(sensor_id, 20);
    await measure(sensor_id, 30);
    expect(await alertsOf(sensor_id)).toEqual([]);
    await measure(sensor_id, 30.000001);
    const [high] = await alertsOf(sensor_id);
    expect(high).toMatchObject({ sensor_id, kind: 'high', severity: 'warning', state: 'active', value: 30.000001, peak: 30.000001 });
    expect(high.raised_at).toBe(iso(NOW));
    expect(high.cleared_at).toBeNull();
  });

  it('every level at its boundaries: low below 20, critically low below 10, high above 30, critically high above 40', async () => {
    const cases: [number, string | undefined, string | undefined][] = [
      [10, 'low', 'warning'],
      [9.99, 'low', 'critical'],
      [19.99, 'low', 'warning'],
      [40, 'high', 'warning'],
      [40.01, 'high', 'critical'],
      [25, undefined, undefined],
    ];
    for (const [value, kindOf, severity] of cases) {
      const { sensor_id } = await newSensor();
      await measure(sensor_id, value);
      const active = await alertsOf(sensor_id, 'active');
      if (kindOf === undefined) expect(active).toEqual([]);
      else expect(active.map((a) => [a.kind, a.severity, a.value])).toEqual([[kindOf, severity, value]]);
    }
  });

  it('escalates the same alert at once, de-escalates it after ALERT_CLEAR_AFTER short of critical, clears it after as long at ok', async () => {
    const { sensor_id, prototype_id } = await newSensor();
    const stream = await open(`?sensor_id=${sensor_id}&types=alert`);
    const ofPrototype = await open(`?prototype_id=${prototype_id}&types=alert,measurements`);
    await measure(sensor_id, 35);
    await measure(sensor_id, 45);
    await measure(sensor_id, 41);
    await measure(sensor_id, 33);
    let [alert] = await alertsOf(sensor_id);
    expect(alert).toMatchObject({ kind: 'high', severity: 'critical', state: 'active', value: 35, peak: 45, last_value: 33, prototype_id });

    service.clock.now = NOW + 1000;
    await measure(sensor_id, 25);
    // Short of critical since NOW (the 33): warning from NOW + ALERT_CLEAR_AFTER on; at ok since NOW + 1 s: cleared a second later.
    await advanceTo(NOW + MINUTE - 1);
    expect((await alertsOf(sensor_id))[0].severity).toBe('critical');
    await advanceTo(NOW + MINUTE);
    expect((await alertsOf(sensor_id))[0]).toMatchObject({ severity: 'warning', state: 'active' });
    await advanceTo(NOW + 1000 + MINUTE - 1);
    expect((await alertsOf(sensor_id, 'active')).length).toBe(1);
    await advanceTo(NOW + 1000 + MINUTE);
    [alert] = await alertsOf(sensor_id);
    expect(alert).toMatchObject({ state: 'cleared', cleared_at: iso(NOW + 1000 + MINUTE), last_value: 25, peak: 45 });
    expect(await alertsOf(sensor_id)).toHaveLength(1);

    await stream.next((e) => JSON.parse(e.data).event === 'cleared');
    const events = stream.events.filter((e) => e.event === 'alert').map((e) => JSON.parse(e.data));
    expect(events.map((e) => [e.event, e.alert.severity])).toEqual([
      ['raised', 'warning'],
      ['escalated', 'critical'],
      ['escalated', 'warning'],
      ['cleared', 'warning'],
    ]);
    expect(events[3].alert).toEqual(alert);
    // The prototype's stream has them too, among its measurements, in commit order.
    await ofPrototype.next((e) => e.event === 'alert' && JSON.parse(e.data).event === 'cleared');
    const kinds = ofPrototype.events.map((e) => (e.event === 'alert' ? JSON.parse(e.data).event : e.event));
    expect(kinds.filter((k) => k !== 'measurements')).toEqual(['raised', 'escalated', 'escalated', 'cleared']);
    expect(kinds.indexOf('raised')).toBeGreaterThan(kinds.indexOf('measurements'));
  });

  it('a value wavering across a threshold gives one alert, not one per crossing', async () => {
    const { sensor_id } = await newSensor();
    for (let i = 0; i < 6; i++) {
      service.clock.now = NOW + i * 10_000;
      await measure(sensor_id, i % 2 === 0 ? 31 : 29);
      manual.advanceTo(service.clock.now);
    }
    const all = await alertsOf(sensor_id);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ state: 'active', last_value: 29, peak: 31 });
    // Back at ok since NOW + 50 s (the last crossing): clears a minute after that, not after the first.
    await advanceTo(NOW + 50_000 + MINUTE - 1);
    expect((await alertsOf(sensor_id, 'active')).length).toBe(1);
    await advanceTo(NOW + 50_000 + MINUTE);
    expect((await alertsOf(sensor_id, 'active')).length).toBe(0);
  });

  it('crossing straight from high to low clears the high alert at once and raises a low one', async () => {
    const { sensor_id } = await newSensor();
    await measure(sensor_id, 35);
    await measure(sensor_id, 15);
    const all = await alertsOf(sensor_id);
    expect(all.map((a) => [a.kind, a.state])).toEqual([
      ['low', 'active'],
      ['high', 'cleared'],
    ]);
  });

  it('raises a stale alert at the instant the newest measurement turns stale, and clears it with the next one', async () => {
    const { sensor_id } = await newSensor();
    await measure(sensor_id, 25);
    await advanceTo(NOW + HOUR);
    expect(await alertsOf(sensor_id)).toEqual([]);
    await advanceTo(NOW + HOUR + 1);
    const [stale] = await alertsOf(sensor_id);
    expect(stale).toMatchObject({ kind: 'stale', severity: 'warning', state: 'active', value: null, raised_at: iso(NOW + HOUR + 1) });
    expect((await service.get(`/prototypes/${stale.prototype_id}/status`)).body.sensors[0].level).toBe('stale');

    service.clock.now = NOW + 2 * HOUR;
    await measure(sensor_id, 26);
    expect(await alertsOf(sensor_id, 'active')).toEqual([]);
    expect((await alertsOf(sensor_id))[0]).toMatchObject({ kind: 'stale', state: 'cleared', cleared_at: iso(NOW + 2 * HOUR) });
  });

  it('a newer measurement keeps the sensor fresh: the stale instant moves with it', async () => {
    const { sensor_id } = await newSensor();
    await measure(sensor_id, 25);
    service.clock.now = NOW + 30 * MINUTE;
    await measure(sensor_id, 25);
    await advanceTo(NOW + HOUR + 1);
    expect(await alertsOf(sensor_id)).toEqual([]);
    await advanceTo(NOW + 30 * MINUTE + HOUR + 1);
    expect((await alertsOf(sensor_id)).map((a) => a.kind)).toEqual(['stale']);
  });

  it('a batch with older timestamps does not change the level when a newer measurement exists', async () => {
    const { sensor_id } = await newSensor();
    await measure(sensor_id, 25);
    await measure(sensor_id, [50, NOW - 1000], [5, NOW - 500]);
    expect(await alertsOf(sensor_id)).toEqual([]);
    // One batch is one evaluation, by its newest row: the earlier rows of it raise nothing.
    await measure(sensor_id, [50, NOW + 1], [25, NOW + 2]);
    expect(await alertsOf(sensor_id)).toEqual([]);
  });

  it('threshold changes through PATCH /sensors re-evaluate at once', async () => {
    const { sensor_id } = await newSensor();
    await measure(sensor_id, 28);
    const patched = await service.patch('/sensors', [{ sensor_id, threshold_high: 27 }]);
    expect(patched.status).toBe(200);
    await service.app.alertsSettled();
    expect((await alertsOf(sensor_id, 'active')).map((a) => [a.kind, a.value])).toEqual([['high', 28]]);
  });

  it('acknowledges an alert (null user in open mode), keeps the first acknowledgement, 404 for an unknown one', async () => {
    const { sensor_id } = await newSensor();
    await measure(sensor_id, 5);
    const [alert] = await alertsOf(sensor_id);
    service.clock.now = NOW + 5000;
    const ack = await service.post(`/alerts/${alert.alert_id}/acknowledge`);
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ alert_id: alert.alert_id, acknowledged_at: iso(NOW + 5000), acknowledged_by: null, state: 'active' });
    service.clock.now = NOW + 9000;
    expect((await service.post(`/alerts/${alert.alert_id}/acknowledge`)).body.acknowledged_at).toBe(iso(NOW + 5000));
    expect((await service.get(`/alerts/${alert.alert_id}`)).body).toEqual(ack.body);
    expect((await service.post('/alerts/999999/acknowledge')).status).toBe(404);
    expect((await service.get('/alerts/999999')).status).toBe(404);
  });

  it('refuses bad ids and queries with 422 and writes nothing', async () => {
    const { sensor_id } = await newSensor();
    await measure(sensor_id, 5);
    const before = await alertCount();
    const acknowledgedBefore = await service.get(`/alerts?sensor_id=${sensor_id}`);
    for (const path of ['/alerts/abc/acknowledge', '/alerts/-1/acknowledge', '/alerts/2147483648/acknowledge']) {
      const res = await service.post(path);
      expect(res.status, path).toBe(422);
      expect(res.body.detail[0].loc[0]).toBe('path');
    }
    for (const query of ['state=open', 'limit=0', 'limit=1001', 'before=x', 'sensor_id=-3', 'prototype_id=1.5']) {
      const res = await service.get(`/alerts?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.detail[0].loc[0]).toBe('query');
    }
    expect((await service.get('/alerts/abc')).status).toBe(422);
    expect((await service.get('/prototypes/abc/status')).status).toBe(422);
    expect(await alertCount()).toBe(before);
    expect((await service.get(`/alerts?sensor_id=${sensor_id}`)).body).toEqual(acknowledgedBefore.body);
  });

  it('lists newest first, filters by state, prototype and sensor, and pages with before', async () => {
    const a = await newSensor();
    const b = await newSensor();
    await measure(a.sensor_id, 5);
    await measure(b.sensor_id, 5);
    await measure(b.sensor_id, 35);
    const ofB = (await service.get(`/alerts?prototype_id=${b.prototype_id}&state=all`)).body as Alert[];
    expect(ofB.map((x) => [x.kind, x.state])).toEqual([
      ['high', 'active'],
      ['low', 'cleared'],
    ]);
    expect((await service.get(`/alerts?prototype_id=${b.prototype_id}`)).body).toEqual([ofB[0]]);
    expect((await service.get(`/alerts?prototype_id=${b.prototype_id}&state=cleared`)).body).toEqual([ofB[1]]);
    const page1 = (await service.get('/alerts?state=all&limit=2')).body as Alert[];
    const page2 = (await service.get(`/alerts?state=all&limit=2&before=${page1[1].alert_id}`)).body as Alert[];
    expect(page1).toHaveLength(2);
    expect(page1[0].alert_id).toBeGreaterThan(page1[1].alert_id);
    expect(page2[0].alert_id).toBeLessThan(page1[1].alert_id);
    expect((await service.get('/alerts?prototype_id=99999')).body).toEqual([]);
  });

  it('the status overview matches the individual endpoints', async () => {
    const { prototype_id, sensor_id } = await newSensor();
    const quiet = (await service.post('/sensors/', { ...SENSOR, prototype_id })).body.sensor_id as number;
    const actuator = await service.post('/actuators', {
      actuator_type: 'acid_pump',
      sensor_id,
      condition_value: 30,
      activation_condition: 'high',
      activation_period: 0,
      activation_duration: 2,
    });
    expect(actuator.status).toBe(200);
    await measure(sensor_id, 42);
    const status = await service.get(`/prototypes/${prototype_id}/status`);
    expect(status.status).toBe(200);
    expect(status.body.prototype).toEqual((await service.get(`/prototypes/${prototype_id}`)).body);
    expect(status.body.sensors.map((s: { sensor: unknown }) => s.sensor)).toEqual((await service.get(`/sensors/${prototype_id}`)).body);
    const [measured, unmeasured] = status.body.sensors;
    expect(measured.level).toBe('critically_high');
    expect(measured.last_measurement).toEqual((await service.get(`/measurements/${sensor_id}/last`)).body);
    expect(measured.alerts).toEqual(await alertsOf(sensor_id, 'active'));
    expect(unmeasured).toMatchObject({ level: null, last_measurement: null, alerts: [] });
    expect(unmeasured.sensor.sensor_id).toBe(quiet);
    expect(status.body.actuators).toEqual([
      {
        actuator: (await service.get(`/actuators/${prototype_id}`)).body[0],
        state: (await service.get(`/actuators/${actuator.body.actuator_id}/state`)).body,
      },
    ]);
    expect(status.body.actuators[0].state.activate).toBe(true);
    expect((await service.get('/prototypes/99999/status')).status).toBe(404);
  });

  it('deleting a sensor (cascade) deletes its alerts', async () => {
    const { sensor_id } = await newSensor();
    await measure(sensor_id, 5);
    const [alert] = await alertsOf(sensor_id);
    expect((await service.request('DELETE', `/sensors/${sensor_id}?cascade=true`)).status).toBe(204);
    expect((await service.get(`/alerts/${alert.alert_id}`)).status).toBe(404);
    const left = await sql<{ n: number }>`select count(*) as n from alert_levels where sensor_id = ${sensor_id}`.execute(
      dbOf(service.store),
    );
    expect(Number(left.rows[0].n)).toBe(0);
  });

  it('deleting a prototype (cascade) deletes its sensors’ alerts', async () => {
    const { prototype_id, sensor_id } = await newSensor();
    await measure(sensor_id, 5);
    expect((await service.request('DELETE', `/prototypes/${prototype_id}?cascade=true`)).status).toBe(204);
    expect(await alertsOf(sensor_id)).toEqual([]);
  });

  it('deleting the newest measurement re-evaluates the level from the one before it', async () => {
    const { sensor_id } = await newSensor();
    await measure(sensor_id, [25, NOW - 1000]);
    const high = await measure(sensor_id, 35);
    expect((await alertsOf(sensor_id, 'active')).map((a) => a.kind)).toEqual(['high']);
    let published = false;
    const stop = bus.subscribe('measurementDeleted', () => (published = true));
    expect((await service.request('DELETE', `/measurements/${high.measurement_id}`)).status).toBe(204);
    stop();
    expect(published).toBe(true);
    await service.app.alertsSettled();
    await advanceTo(NOW + MINUTE);
    expect((await alertsOf(sensor_id)).map((a) => [a.kind, a.state, a.last_value])).toEqual([['high', 'cleared', 25]]);
  });

  it('is in the OpenAPI document with its tag', async () => {
    const doc = (await service.get('/openapi.json')).body;
    expect(doc.paths['/alerts'].get.tags).toEqual(['Alerts']);
    expect(doc.paths['/alerts/{alert_id}'].get.operationId).toBe('alert');
    expect(doc.paths['/alerts/{alert_id}/acknowledge'].post.description).toMatch(/acknowledged_by/);
    expect(doc.paths['/prototypes/{prototype_id}/status'].get.tags).toEqual(['Prototypes']);
  });
});
