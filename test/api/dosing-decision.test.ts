import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeBus, type Changes } from '../../src/core/bus.js';
import { eventually } from '../helpers/eventually.js';
import { manualServiceTimers } from '../helpers/manual-timers.js';
import { cleanBroker, mqttEnv, serviceClientIds, testClient, uniquePrefix } from '../helpers/mqtt.js';
import { startService, type TestService } from '../helpers/service.js';
import { scratchDatabase, storeKinds } from '../helpers/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const S = 1000;
const iso = (ms: number) => new Date(ms).toISOString();
type State = { activate: boolean; status: string; reason: string; duration: number; period: number };

/** A prototype of the test's own with sensors and pumps on it, over HTTP. */
function tank(service: () => TestService, prototypeId: number) {
  const ok = <T>(res: { status: number; body: T; text: string }) => {
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  return {
    async sensor(fields: Record<string, unknown> = {}): Promise<number> {
      const body = {
        sensor_type: 'ph',
        prototype_id: prototypeId,
        sensor_unit: 'pH',
        threshold_critically_low: 0,
        threshold_low: 5,
        threshold_high: 7,
        threshold_critically_high: 14,
        ...fields,
      };
      return ok(await service().post('/sensors/', body)).sensor_id as number;
    },
    async pump(sensorId: number, fields: Record<string, unknown> = {}): Promise<number> {
      const body = {
        actuator_type: 'acid_pump',
        sensor_id: sensorId,
        condition_value: 6.5,
        activation_condition: 'high',
        activation_period: 60,
        activation_duration: 3,
        ...fields,
      };
      return ok(await service().post('/actuators', body)).actuator_id as number;
    },
    async measure(sensorId: number, value: number, timestamp = service().clock.now ?? Date.now()): Promise<void> {
      ok(await service().post('/measurements', { sensor_id: sensorId, value, timestamp: iso(timestamp) }));
    },
    async state(actuatorId: number): Promise<State> {
      return ok(await service().get(`/actuators/${actuatorId}/state`)) as State;
    },
    async ran(actuatorId: number): Promise<void> {
      ok(await service().request('PATCH', `/actuators/${actuatorId}/last_activated`));
    },
    patch: async (fields: Record<string, unknown>) => ok(await service().patch('/actuators', [fields])),
  };
}

describe.each(storeKinds())('the dosing decision over HTTP (%s)', (kind) => {
  let service: TestService;
  const t = tank(() => service, 7);
  beforeAll(async () => {
    service = await startService(kind, { env: { STALE_AFTER: 'PT1H' } });
    expect((await service.post('/prototypes', { prototype_id: 7, prototype_name: 'tank' })).status).toBe(200);
  });
  beforeEach(() => {
    service.clock.now = NOW;
  });
  afterAll(() => service?.close());

  it('gives each reason in its order, with its code', async () => {
    const ph = await t.sensor({ stale_after: 600 });
    const level = await t.sensor({ sensor_type: 'water_level', sensor_unit: 'cm', stale_after: 60 });
    const id = await t.pump(ph, {
      enabled: false,
      activation_duration: 0,
      max_doses_per_hour: 2,
      interlocks: [{ sensor_id: level, block_below: 20, block_above: 80 }],
    });
    const reason = async () => (await t.state(id)).reason;
    expect(await t.state(id)).toEqual({ activate: false, status: 'Actuator disabled', reason: 'disabled', duration: 0, period: 60 });
    await t.patch({ actuator_id: id, enabled: true });
    expect(await reason()).toBe('no_measurement');
    expect((await service.post('/prototypes/7/pause', { for: 60 })).status).toBe(200);
    expect(await t.state(id)).toMatchObject({ activate: false, reason: 'paused', status: `Prototype paused until ${iso(NOW + 60 * S)}` });
    expect((await service.request('DELETE', '/prototypes/7/pause')).status).toBe(204);
    expect(await reason()).toBe('no_measurement');
    // Older than the sensor's own stale_after (600 s), though well within STALE_AFTER (1 h).
    await t.measure(ph, 7, NOW - 601 * S);
    expect(await reason()).toBe('stale');
    await t.measure(ph, 15, NOW - 10 * S);
    expect(await t.state(id)).toMatchObject({ reason: 'invalid', status: 'Measurement 15 outside the valid range 0..14' });
    await t.measure(ph, 7.1, NOW - 5 * S);
    expect(await t.state(id)).toMatchObject({ reason: 'interlock', status: `Interlock: water level #${level} has no measurement` });
    await t.measure(level, 50, NOW - 61 * S);
    expect((await t.state(id)).status).toBe(`Interlock: water level #${level} last measurement too old`);
    await t.measure(level, 19, NOW - 4 * S);
    expect((await t.state(id)).status).toBe(`Interlock: water level #${level} is 19 (below 20)`);
    await t.measure(level, 81, NOW - 3 * S);
    expect((await t.state(id)).status).toBe(`Interlock: water level #${level} is 81 (above 80)`);
    await t.measure(level, 50, NOW - 2 * S);
    // Created at NOW: its period of 60 s runs from then.
    expect(await reason()).toBe('waiting');
    service.clock.now = NOW + 60 * S;
    await t.measure(level, 50);
    expect(await reason()).toBe('zero_duration');
    await t.patch({ actuator_id: id, activation_duration: 3 });
    await t.measure(level, 50);
    expect(await t.state(id)).toEqual({ activate: true, status: 'OK', reason: 'ok', duration: 3, period: 60 });
    await t.ran(id);
    expect(await reason()).toBe('waiting');
    service.clock.now = NOW + 120 * S;
    await t.measure(level, 50);
    expect(await reason()).toBe('ok');
    await t.ran(id);
    service.clock.now = NOW + 180 * S;
    await t.measure(level, 50);
    // Two doses in the hour: a third would break max_doses_per_hour 2.
    expect(await t.state(id)).toEqual({
      activate: false,
      status: 'Dose limit: at most 2 doses per hour',
      reason: 'limit',
      duration: 3,
      period: 60,
    });
    // The first dose leaves the hour exactly 60 minutes after it.
    service.clock.now = NOW + 60 * S + 3600 * S - 1;
    await t.measure(level, 50);
    await t.measure(ph, 7.2);
    expect(await reason()).toBe('limit');
    service.clock.now = NOW + 60 * S + 3600 * S;
    expect(await reason()).toBe('ok');
  });

  it('holds at max_seconds_per_day only when one more dose would pass it: exactly at the limit is allowed', async () => {
    const ph = await t.sensor();
    const id = await t.pump(ph, { activation_period: 0, activation_duration: 3, max_seconds_per_day: 6 });
    await t.measure(ph, 7);
    await t.ran(id);
    // 3 s run + 3 s more = 6 s: at the limit, allowed.
    expect(await t.state(id)).toMatchObject({ activate: true, reason: 'ok' });
    await t.ran(id);
    expect(await t.state(id)).toMatchObject({ activate: false, reason: 'limit', status: 'Dose limit: at most 6 s of run time per 24 h' });
  });

  it('calls a sensor repeating one exact value stuck', async () => {
    const ph = await t.sensor({ stuck_after: 300 });
    const id = await t.pump(ph, { activation_period: 0 });
    await t.measure(ph, 7, NOW - 400 * S);
    await t.measure(ph, 7, NOW - 200 * S);
    expect(await t.state(id)).toMatchObject({ reason: 'ok' });
    // That read claimed a dose; its report closes the claim.
    await t.ran(id);
    await t.measure(ph, 7, NOW);
    expect(await t.state(id)).toMatchObject({ activate: false, reason: 'stuck' });
    await t.measure(ph, 7.01, NOW);
    expect(await t.state(id)).toMatchObject({ activate: true, reason: 'ok' });
  });

  it('notes the poll as last_polled, the fast path and the route alike', async () => {
    const ph = await t.sensor();
    const id = await t.pump(ph);
    const polled = async () =>
      ((await service.get('/actuators/7')).body as { actuator_id: number; last_polled: string | null }[]).find((a) => a.actuator_id === id)!
        .last_polled;
    expect(await polled()).toBeNull();
    service.clock.now = NOW + 5 * S;
    await t.state(id);
    expect(await polled()).toBe(iso(NOW + 5 * S));
    // Through the route (a query string skips the fast path).
    service.clock.now = NOW + 9 * S;
    expect((await service.get(`/actuators/${id}/state?x=1`)).status).toBe(200);
    expect(await polled()).toBe(iso(NOW + 9 * S));
  });
});

describe.each(storeKinds())('the dosing decision over time and across restarts (%s)', (kind) => {
  it('after a restart a reading stored before waits as `restarted` until a fresh one arrives', async () => {
    const database = await scratchDatabase(kind);
    let service: TestService | undefined;
    try {
      service = await startService(kind, { database });
      await service.post('/prototypes', { prototype_id: 7, prototype_name: 'tank' });
      const t = tank(() => service!, 7);
      const ph = await t.sensor();
      const id = await t.pump(ph, { activation_period: 0 });
      await t.measure(ph, 7);
      expect((await t.state(id)).reason).toBe('ok');
      // That read claimed a dose (kept across the restart); its report closes the claim.
      await t.ran(id);
      await service.close();
      service = await startService(kind, { database });
      expect(await t.state(id)).toMatchObject({ activate: false, reason: 'restarted' });
      await t.measure(ph, 7);
      expect(await t.state(id)).toMatchObject({ activate: true, reason: 'ok' });
    } finally {
      await service?.close();
      await database.drop();
    }
  });

  it('a pause ending by itself announces the actuators at paused_until; a silent controller is published at its timeout', async () => {
    const manual = manualServiceTimers();
    const bus = changeBus();
    const service = await startService(kind, { bus, app: { liveEvents: { timers: manual.timers } } });
    manual.follow(service);
    service.clock.now = NOW;
    const decisions: Changes['decision'][] = [];
    const controller: Changes['controller'][] = [];
    bus.subscribe('decision', (change) => decisions.push(change));
    bus.subscribe('controller', (change) => controller.push(change));
    try {
      await service.post('/prototypes', { prototype_id: 7, prototype_name: 'tank' });
      const t = tank(() => service, 7);
      const ph = await t.sensor();
      const id = await t.pump(ph, { activation_period: 0, controller_timeout: 30 });
      await t.measure(ph, 7);
      await eventually(() => decisions.at(-1)?.state.reason === 'ok', 'the pump to decide ok');
      expect((await service.post('/prototypes/7/pause', { for: 60 })).status).toBe(200);
      await eventually(() => decisions.at(-1)?.state.reason === 'paused', 'the pause to be announced');
      const before = decisions.length;
      manual.advanceTo(NOW + 60 * S - 1);
      expect(decisions).toHaveLength(before);
      manual.advanceTo(NOW + 60 * S);
      await eventually(() => decisions.length > before, 'the pause end to be announced');
      expect(decisions.at(-1)).toMatchObject({ actuator: { actuator_id: id }, state: { reason: 'ok', activate: true } });

      // The controller was never heard from since the pump was made at NOW: offline 30 s later.
      await eventually(() => controller.length > 0, 'the silent controller to be published');
      expect(controller).toEqual([{ actuatorId: id, offline: true, at: NOW + 30 * S }]);
      // Back at its next poll (NOW + 60 s); offline again exactly 30 s after that poll.
      await t.state(id);
      expect(controller.at(-1)).toEqual({ actuatorId: id, offline: false, at: NOW + 60 * S });
      controller.length = 0;
      manual.advanceTo(NOW + 90 * S - 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(controller).toEqual([]);
      manual.advanceTo(NOW + 90 * S);
      await eventually(() => controller.length > 0, 'the controller to be published offline');
      expect(controller).toEqual([{ actuatorId: id, offline: true, at: NOW + 90 * S }]);
      service.clock.now = NOW + 100 * S;
      await t.state(id);
      expect(controller.at(-1)).toEqual({ actuatorId: id, offline: false, at: NOW + 100 * S });
    } finally {
      await service.close();
    }
  });
});

describe.each(storeKinds())('the decision on the MQTT state topic (%s)', (kind) => {
  const prefix = uniquePrefix();
  let service: TestService;
  afterAll(async () => {
    await service?.close();
    await cleanBroker(prefix, serviceClientIds(prefix));
  });

  it('is the decision HTTP answers, at the same moments', async () => {
    service = await startService(kind, { env: { ...mqttEnv(prefix), MQTT_HA_DISCOVERY: 'false' } });
    await eventually(async () => (await service.get('/healthz')).body.mqtt === 'connected', 'the service to subscribe');
    const observer = await testClient();
    try {
      await service.post('/prototypes', { prototype_id: 7, prototype_name: 'tank' });
      const t = tank(() => service, 7);
      const ph = await t.sensor();
      const id = await t.pump(ph, { activation_period: 0, max_doses_per_hour: 1 });
      await observer.subscribe(`${prefix}/actuators/${id}/state`);
      const onTopic = async (reason: string) =>
        JSON.parse((await observer.waitFor((m) => m.text !== '' && JSON.parse(m.text).reason === reason)).text) as State;
      expect(await onTopic('no_measurement')).toEqual(await t.state(id));
      await t.measure(ph, 7);
      expect(await onTopic('ok')).toEqual(await t.state(id));
      await t.ran(id);
      expect(await onTopic('limit')).toEqual(await t.state(id));
      await t.measure(ph, 16);
      expect(await onTopic('invalid')).toEqual(await t.state(id));
    } finally {
      await observer.close();
    }
  });
});
