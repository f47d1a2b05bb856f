import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { liveService, type SseEvent } from '../helpers/sse.js';
import { storeKinds, dbOf } from '../helpers/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const iso = (ms: number) => new Date(ms).toISOString();
/** Runs whenever its sensor reads above 7 (no period to wait for). */
const PUMP = {
  actuator_type: 'acid_pump',
  condition_value: 7,
  activation_condition: 'high',
  activation_period: 0,
  activation_duration: 2,
};
const data = (event: SseEvent) => JSON.parse(event.data);

/**
 * Deletes as live events: a deleted measurement (§9 has no event of its own for it) and what a
 * cascade takes with it, over real streams.
 */
describe.each(storeKinds())('live events of deletes (%s)', (kind) => {
  const live = liveService(kind, NOW, (timers) => ({ env: { STALE_AFTER: 'PT1H' }, app: { liveEvents: { timers } } }));
  const { service, manual } = live;
  const open = async (query: string) => {
    const stream = await live.open(query);
    expect(stream.status).toBe(200);
    return stream;
  };
  const created = async (path: string, body: unknown) => {
    const res = await service.post(path, body);
    expect(res.status).toBe(200);
    return res.body;
  };
  const count = async (table: 'measurements' | 'actuators' | 'sensors' | 'prototypes') =>
    Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(dbOf(service.store))).rows[0].n);
  let nextPrototype = 100;
  /** A prototype of its own with `sensors` sensors, so no other test's events reach its streams. */
  const newPrototype = async (sensors = 1) => {
    const prototype_id = nextPrototype++;
    await created('/prototypes', { prototype_id, prototype_name: `tank ${prototype_id}` });
    const sensorIds: number[] = [];
    for (let i = 0; i < sensors; i++) sensorIds.push((await created('/sensors/', { ...phSensorBody, prototype_id })).sensor_id);
    return { prototype_id, sensorIds };
  };

  it('a deleted measurement: `reset` with its ids to the streams of its sensor only; the newest reads answer what remains', async () => {
    const {
      sensorIds: [sensor_id, other],
    } = await newPrototype(2);
    const mine = await open(`?sensor_id=${sensor_id}&types=measurements`);
    const theirs = await open(`?sensor_id=${other}&types=measurements`);
    const older = await created('/measurements', { sensor_id, value: 6, timestamp: iso(NOW - 60_000) });
    const newest = await created('/measurements', { sensor_id, value: 6.5, timestamp: iso(NOW) });
    // Read once, so any in-memory copy of the newest holds the row about to go.
    expect((await service.get(`/measurements/${sensor_id}/last`)).body).toEqual(newest);

    expect((await service.request('DELETE', `/measurements/${newest.measurement_id}`)).status).toBe(204);
    const reset = await mine.next((e) => e.event === 'reset');
    expect(data(reset)).toEqual({ reason: 'measurement deleted', sensor_id, measurement_id: newest.measurement_id });
    expect(reset.id).toBeTruthy();
    expect((await service.get(`/measurements/${sensor_id}/last`)).body).toEqual(older);

    expect((await service.request('DELETE', `/measurements/${older.measurement_id}`)).status).toBe(204);
    await mine.next((e) => e.event === 'reset' && data(e).measurement_id === older.measurement_id);
    expect((await service.get(`/measurements/${sensor_id}/last`)).status).toBe(404);

    // The other sensor's stream was sent none of it: its first event is the marker after.
    const marker = await created('/measurements', { sensor_id: other, value: 1 });
    expect((await theirs.next()).data).toBe(JSON.stringify([marker]));
    expect(mine.events.map((e) => e.event)).toEqual(['measurements', 'measurements', 'reset', 'reset']);
  });

  it('an unknown or malformed measurement id: 404 or 422, nothing deleted and nothing sent', async () => {
    const {
      sensorIds: [sensor_id],
    } = await newPrototype();
    const stream = await open(`?sensor_id=${sensor_id}&types=measurements`);
    await created('/measurements', { sensor_id, value: 6 });
    await stream.next();
    const before = await count('measurements');
    expect((await service.request('DELETE', '/measurements/2147483000')).status).toBe(404);
    const malformed = await service.request('DELETE', '/measurements/abc');
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc).toEqual(['path', 'measurement_id']);
    expect((await service.request('DELETE', '/measurements/2147483648')).status).toBe(422);
    expect(await count('measurements')).toBe(before);
    const marker = await created('/measurements', { sensor_id, value: 7 });
    expect(data(await stream.next((e) => e !== stream.events[0]))).toEqual([marker]);
    expect(stream.events).toHaveLength(2);
  });

  it('deleting the newest measurement decides its actuators again on what remains; an older one changes nothing', async () => {
    const {
      prototype_id,
      sensorIds: [sensor_id],
    } = await newPrototype();
    const stream = await open(`?sensor_id=${sensor_id}&types=actuator`);
    const actuator = await created('/actuators', { ...PUMP, sensor_id });
    await stream.next((e) => data(e).state.status === 'No measurement for the sensor');
    const high = await created('/measurements', { sensor_id, value: 8, timestamp: iso(NOW - 2000) });
    await stream.next((e) => data(e).state.activate === true);
    const lowOld = await created('/measurements', { sensor_id, value: 6, timestamp: iso(NOW - 3000) });
    const low = await created('/measurements', { sensor_id, value: 6, timestamp: iso(NOW - 1000) });
    await stream.next((e) => data(e).state.activate === false && data(e).state.status === 'OK');
    expect(stream.events).toHaveLength(3);

    // Not the newest: the decision rests on the same reading, so no event.
    expect((await service.request('DELETE', `/measurements/${lowOld.measurement_id}`)).status).toBe(204);
    // The newest: the reading before it (8, high) decides again, and the pump runs.
    expect((await service.request('DELETE', `/measurements/${low.measurement_id}`)).status).toBe(204);
    const again = await stream.next((e) => data(e).state.activate === true, { from: 3 });
    expect(stream.events.indexOf(again)).toBe(3);
    expect(data(again)).toEqual({ actuator, state: { activate: true, status: 'OK', reason: 'ok', duration: 2, period: 0 } });
    // Observed through the tank's status: a state read answering activate: true would claim a
    // dose, and the claim is an actuator event of its own.
    const status = await service.get(`/prototypes/${prototype_id}/status`);
    const observed = status.body.actuators.find(
      (a: { actuator: { actuator_id: number } }) => a.actuator.actuator_id === actuator.actuator_id,
    );
    expect(observed.state.activate).toBe(true);

    // The last one gone: no measurement at all, and no alarm left for the deleted reading turning stale.
    const staleAt = NOW - 2000 + 3600_001;
    expect(manual.due()).toContain(staleAt);
    expect((await service.request('DELETE', `/measurements/${high.measurement_id}`)).status).toBe(204);
    const none = await stream.next((e) => data(e).state.status === 'No measurement for the sensor', { from: 4 });
    expect(stream.events.indexOf(none)).toBe(4);
    expect((await service.get(`/actuators/${actuator.actuator_id}/state`)).body).toMatchObject({ activate: false });
    expect(manual.due()).not.toContain(staleAt);
  });

  it('a sensor deleted with cascade: `{"deleted": id}` for each of its actuators, then for the sensor', async () => {
    const {
      prototype_id,
      sensorIds: [sensor_id],
    } = await newPrototype();
    const first = await created('/actuators', { ...PUMP, sensor_id });
    const second = await created('/actuators', { ...PUMP, sensor_id, actuator_type: 'base_pump' });
    await created('/measurements', { sensor_id, value: 8 });
    // The pumps' decisions on that reading are announced first, not among the deletes.
    await service.app.alertsSettled();
    await service.app.decisionsRecorded();
    const bySensor = await open(`?sensor_id=${sensor_id}&types=actuator,sensor`);
    const byPrototype = await open(`?prototype_id=${prototype_id}&types=actuator,sensor`);

    expect((await service.request('DELETE', `/sensors/${sensor_id}?cascade=true`)).status).toBe(204);
    const told = [
      ['actuator', { deleted: first.actuator_id }],
      ['actuator', { deleted: second.actuator_id }],
      ['sensor', { deleted: sensor_id }],
    ];
    for (const stream of [bySensor, byPrototype]) {
      await stream.next((e) => e.event === 'sensor');
      // The deletes, in their order (an announcement of the pumps' own may come before them).
      const deletes = stream.events.map((e) => [e.event, data(e)]).filter(([, d]) => 'deleted' in (d as object));
      expect(deletes).toEqual(told);
    }
    expect((await service.get(`/actuators/${first.actuator_id}/state`)).status).toBe(404);
    expect((await service.get(`/actuators/${second.actuator_id}/state`)).status).toBe(404);
  });

  it('a prototype deleted with cascade: each actuator, then each sensor, then the prototype', async () => {
    const {
      prototype_id,
      sensorIds: [a, b],
    } = await newPrototype(2);
    const onA = await created('/actuators', { ...PUMP, sensor_id: a });
    const onB = await created('/actuators', { ...PUMP, sensor_id: b });
    await created('/measurements', [
      { sensor_id: a, value: 8 },
      { sensor_id: b, value: 6 },
    ]);
    const whole = await open(`?prototype_id=${prototype_id}&types=actuator,sensor,prototype`);
    const onlyB = await open(`?sensor_id=${b}&types=actuator,sensor,prototype`);

    expect((await service.request('DELETE', `/prototypes/${prototype_id}?cascade=true`)).status).toBe(204);
    await whole.next((e) => e.event === 'prototype');
    // The pumps' new decisions after the readings above may be announced late (a loaded machine),
    // before the deletes: what is checked here is the deletes and their order.
    const deletes = (events: typeof whole.events) => events.filter((e) => 'deleted' in data(e)).map((e) => [e.event, data(e)]);
    expect(deletes(whole.events)).toEqual([
      ['actuator', { deleted: onA.actuator_id }],
      ['actuator', { deleted: onB.actuator_id }],
      ['sensor', { deleted: a }],
      ['sensor', { deleted: b }],
      ['prototype', { deleted: prototype_id }],
    ]);
    // A stream of one sensor hears of that sensor's actuator, then of the sensor.
    await onlyB.next((e) => e.event === 'sensor');
    expect(deletes(onlyB.events)).toEqual([
      ['actuator', { deleted: onB.actuator_id }],
      ['sensor', { deleted: b }],
    ]);
    expect((await service.get(`/actuators/${onA.actuator_id}/state`)).status).toBe(404);
    expect((await service.get(`/actuators/${onB.actuator_id}/state`)).status).toBe(404);
  });

  it('a refused or malformed cascade deletes nothing and sends nothing', async () => {
    const {
      prototype_id,
      sensorIds: [sensor_id],
    } = await newPrototype();
    const stream = await open(`?prototype_id=${prototype_id}&types=actuator,sensor,prototype`);
    const actuator = await created('/actuators', { ...PUMP, sensor_id });
    // The new actuator's first decision may be announced after its create answered: wait for it.
    await stream.next((e) => data(e).state?.reason === 'no_measurement');
    const before = await Promise.all([count('actuators'), count('sensors'), count('prototypes')]);

    expect((await service.request('DELETE', `/sensors/${sensor_id}`)).status).toBe(409);
    expect((await service.request('DELETE', `/prototypes/${prototype_id}`)).status).toBe(409);
    const malformed = await service.request('DELETE', `/prototypes/${prototype_id}?cascade=maybe`);
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc).toEqual(['query', 'cascade']);
    expect((await service.request('DELETE', `/sensors/${sensor_id}?cascade=yes`)).status).toBe(422);
    expect(await Promise.all([count('actuators'), count('sensors'), count('prototypes')])).toEqual(before);

    // The first event after the refusals is the marker: nothing came for them.
    await service.patch('/actuators', [{ actuator_id: actuator.actuator_id, actuator_name: 'marker' }]);
    const first = await stream.next((e) => e !== stream.events[0]);
    expect(data(first).actuator.actuator_name).toBe('marker');
    expect(stream.events).toHaveLength(2);
  });
});
