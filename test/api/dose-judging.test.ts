import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/domain/alert.js';
import { phSensorBody } from '../helpers/bodies.js';
import { cleanBroker, mqttEnv, serviceClientIds, testClient, type TestClient, uniquePrefix } from '../helpers/mqtt.js';
import { startService, type TestService } from '../helpers/service.js';
import { openStream } from '../helpers/sse.js';
import { scratchDatabase, storeKinds } from '../helpers/stores.js';
import { tokenFor } from '../helpers/tokens.js';

/** Dose judging and lockout (docs/api.md §14) through HTTP, on both stores. */
const NOW = Date.UTC(2026, 10, 22, 12);
const SECOND = 1000;
const iso = (ms: number) => new Date(ms).toISOString();
/**
 * An acid pump on a pH sensor: runs above 6.5, every 60 s, judged 10 s after each dose against an
 * explicit threshold (the automatic one, on the probe's noise, has tests of its own).
 */
const PUMP = {
  min_response: 0,
  actuator_type: 'acid_pump',
  condition_value: 6.5,
  activation_condition: 'high',
  activation_period: 60,
  activation_duration: 3,
  response_delay: 10,
};

interface Dosing {
  service: TestService;
  token?: string;
}

/** What the tests of one service do: a tank with a pH sensor and a pump, readings, run reports. */
function dosing({ service, token }: Dosing) {
  const opts = token ? { token } : {};
  let nextPrototype = 100;
  return {
    async tank(pump: Record<string, unknown> = {}) {
      const prototype_id = nextPrototype++;
      expect((await service.post('/prototypes', { prototype_id, prototype_name: `tank ${prototype_id}` }, opts)).status).toBe(200);
      const sensor = await service.post('/sensors/', { ...phSensorBody, threshold_high: 14, prototype_id }, opts);
      expect(sensor.status).toBe(200);
      const sensor_id = sensor.body.sensor_id as number;
      const actuator = await service.post('/actuators', { ...PUMP, sensor_id, ...pump }, opts);
      expect(actuator.status).toBe(200);
      return { prototype_id, sensor_id, actuator_id: actuator.body.actuator_id as number };
    },
    /** A reading taken at `at` (the clock moves there first), its consequences settled. */
    async read(sensor_id: number, value: number, at: number) {
      service.clock.now = at;
      expect((await service.post('/measurements', { sensor_id, value, timestamp: iso(at) }, opts)).status).toBe(200);
      await service.app.alertsSettled();
    },
    /** The controller reports a run at `at`. */
    async ran(actuator_id: number, at: number) {
      service.clock.now = at;
      expect((await service.patch(`/actuators/${actuator_id}/last_activated`, undefined, opts)).status).toBe(200);
      await service.app.alertsSettled();
    },
    /** `answered` of the actuator's doses, oldest first. */
    async answers(actuator_id: number): Promise<(boolean | null)[]> {
      const res = await service.get(`/actuators/${actuator_id}/activations?limit=1000`, opts);
      expect(res.status).toBe(200);
      return (res.body as { answered: boolean | null }[]).map((d) => d.answered).reverse();
    },
    async actuator(prototype_id: number, actuator_id: number) {
      const res = await service.get(`/actuators/${prototype_id}`, opts);
      return (res.body as { actuator_id: number; lockout: unknown }[]).find((a) => a.actuator_id === actuator_id);
    },
    /** The actuators' alerts the query finds (the sensor's own, stale ones among them, are not what these tests are about). */
    async alerts(query: string): Promise<Alert[]> {
      const res = await service.get(`/alerts?${query}`, opts);
      expect(res.status).toBe(200);
      return (res.body as Alert[]).filter((a) => a.actuator_id !== null);
    },
    /** `count` doses in a row at `from`, one a minute, each read before at `value` (so each judges the one before). */
    async doses(actuator_id: number, sensor_id: number, value: number, count: number, from: number): Promise<number> {
      let at = from;
      for (let i = 0; i < count; i++, at += 60 * SECOND) {
        await this.read(sensor_id, value, at);
        await this.ran(actuator_id, at);
      }
      return at;
    },
  };
}

describe.each(storeKinds())('dose judging (%s)', (kind) => {
  let service: TestService;
  let d: ReturnType<typeof dosing>;
  beforeAll(async () => {
    service = await startService(kind);
    d = dosing({ service });
  });
  afterAll(() => service?.close());

  it('judges in the corrective direction: down for high, up for low, toward condition_value for low_or_high', async () => {
    const cases: [Record<string, unknown>, number, number, boolean][] = [
      [{ activation_condition: 'high' }, 7, 6.75, true],
      [{ activation_condition: 'high' }, 7, 7.25, false],
      [{ activation_condition: 'high' }, 7, 7, false],
      [{ activation_condition: 'low', condition_value: 5.5 }, 5, 5.25, true],
      [{ activation_condition: 'low', condition_value: 5.5 }, 5, 4.75, false],
      [{ activation_condition: 'low_or_high', condition_value: 6 }, 7, 6.5, true],
      [{ activation_condition: 'low_or_high', condition_value: 6 }, 7, 7.5, false],
      [{ activation_condition: 'low_or_high', condition_value: 6 }, 5, 5.5, true],
      [{ activation_condition: 'low_or_high', condition_value: 6 }, 5, 4.5, false],
    ];
    for (const [pump, before, after, answered] of cases) {
      const { sensor_id, actuator_id } = await d.tank(pump);
      await d.read(sensor_id, before, NOW);
      await d.ran(actuator_id, NOW);
      expect(await d.answers(actuator_id)).toEqual([null]);
      await d.read(sensor_id, after, NOW + 10 * SECOND);
      expect(await d.answers(actuator_id), JSON.stringify(pump)).toEqual([answered]);
    }
  });

  it('waits exactly response_delay (null: the activation period), judging by the newest reading then', async () => {
    const { sensor_id, actuator_id } = await d.tank({ response_delay: 10 });
    await d.read(sensor_id, 7, NOW);
    await d.ran(actuator_id, NOW);
    await d.read(sensor_id, 6, NOW + 10 * SECOND - 1);
    expect(await d.answers(actuator_id)).toEqual([null]);
    await d.read(sensor_id, 7, NOW + 10 * SECOND);
    expect(await d.answers(actuator_id)).toEqual([false]);

    const byPeriod = await d.tank({ response_delay: null });
    await d.read(byPeriod.sensor_id, 7, NOW);
    await d.ran(byPeriod.actuator_id, NOW);
    await d.read(byPeriod.sensor_id, 6, NOW + 59 * SECOND);
    expect(await d.answers(byPeriod.actuator_id)).toEqual([null]);
    await d.read(byPeriod.sensor_id, 6, NOW + 60 * SECOND);
    expect(await d.answers(byPeriod.actuator_id)).toEqual([true]);
  });

  it('needs strictly more than min_response', async () => {
    const { sensor_id, actuator_id } = await d.tank({ min_response: 0.25 });
    await d.read(sensor_id, 7.5, NOW);
    await d.ran(actuator_id, NOW);
    await d.read(sensor_id, 7.25, NOW + 10 * SECOND);
    await d.ran(actuator_id, NOW + 60 * SECOND);
    await d.read(sensor_id, 6.96875, NOW + 70 * SECOND);
    expect(await d.answers(actuator_id)).toEqual([false, true]);
  });

  it('never judges an `always` pump, nor a dose without a reading before it', async () => {
    const always = await d.tank({ activation_condition: 'always' });
    await d.read(always.sensor_id, 7, NOW);
    await d.ran(always.actuator_id, NOW);
    await d.read(always.sensor_id, 6, NOW + 10 * SECOND);
    await d.ran(always.actuator_id, NOW + 60 * SECOND);
    await d.read(always.sensor_id, 5, NOW + 70 * SECOND);
    expect(await d.answers(always.actuator_id)).toEqual([null, null]);

    const unread = await d.tank();
    await d.ran(unread.actuator_id, NOW);
    await d.read(unread.sensor_id, 7, NOW + 10 * SECOND);
    await d.ran(unread.actuator_id, NOW + 60 * SECOND);
    await d.read(unread.sensor_id, 6, NOW + 70 * SECOND);
    expect(await d.answers(unread.actuator_id)).toEqual([null, true]);
  });

  it('locks out at exactly lockout_after unanswered doses in a row; an answered one starts the count over', async () => {
    const { prototype_id, sensor_id, actuator_id } = await d.tank({ lockout_after: 5 });
    // 4 unanswered, 1 answered, 4 unanswered: never 5 in a row.
    let at = await d.doses(actuator_id, sensor_id, 7, 5, NOW);
    await d.read(sensor_id, 6.5, at);
    await d.ran(actuator_id, at);
    at = await d.doses(actuator_id, sensor_id, 7, 3, at + 60 * SECOND);
    await d.read(sensor_id, 7, at);
    expect(await d.answers(actuator_id)).toEqual([false, false, false, false, true, false, false, false, false]);
    expect((await d.actuator(prototype_id, actuator_id))?.lockout).toBeNull();
    expect(await d.alerts(`prototype_id=${prototype_id}&state=all`)).toEqual([]);
    // The fifth in a row.
    await d.ran(actuator_id, at);
    await d.read(sensor_id, 7, at + 10 * SECOND);
    expect((await d.actuator(prototype_id, actuator_id))?.lockout).toEqual({
      since: iso(at + 10 * SECOND),
      reason: '5 doses in a row did not move pH down by more than 0',
    });
  });

  it('the default lockout_after is 20: 19 unanswered leave the pump alone, the 20th locks it out; null never locks', async () => {
    const { prototype_id, sensor_id, actuator_id } = await d.tank();
    const at = await d.doses(actuator_id, sensor_id, 8, 20, NOW);
    // 19 judged, the 20th waits for its reading.
    expect((await d.actuator(prototype_id, actuator_id))?.lockout).toBeNull();
    await d.read(sensor_id, 8, at);
    expect((await d.actuator(prototype_id, actuator_id))?.lockout).toMatchObject({
      reason: '20 doses in a row did not move pH down by more than 0',
    });

    const off = await d.tank({ lockout_after: null });
    await d.read(off.sensor_id, 8, await d.doses(off.actuator_id, off.sensor_id, 8, 25, NOW));
    expect((await d.answers(off.actuator_id)).filter((a) => a === false)).toHaveLength(25);
    expect((await d.actuator(off.prototype_id, off.actuator_id))?.lockout).toBeNull();
    expect(await d.alerts(`prototype_id=${off.prototype_id}&state=all`)).toEqual([]);
  });
});

describe.each(storeKinds())('lockout alert and unlock (%s)', (kind) => {
  const prefix = uniquePrefix();
  let service: TestService;
  let mqtt: TestClient;
  let token: string;
  let d: ReturnType<typeof dosing>;
  beforeAll(async () => {
    service = await startService(kind, { env: { ...mqttEnv(prefix), AUTH_MODE: 'enforced', MQTT_TRUST_BROKER: 'true' } });
    token = await tokenFor(service.store, 'grower', 1 | 2 | 4);
    d = dosing({ service, token });
    mqtt = await testClient();
    await mqtt.subscribe(`${prefix}/alerts`);
  });
  afterAll(async () => {
    await mqtt?.close();
    await service?.close();
    await cleanBroker(prefix, serviceClientIds(prefix));
  });

  it('raises one critical lockout alert, publishes the locked actuator and the alert; unlock clears it as the user', async () => {
    const { prototype_id, sensor_id, actuator_id } = await d.tank({ lockout_after: 3 });
    const stream = await openStream(`${service.url}/events?types=actuator,alert`, { authorization: `Bearer ${token}` });
    try {
      const at = await d.doses(actuator_id, sensor_id, 8, 3, NOW);
      await d.read(sensor_id, 8, at);
      // More unanswered doses reported meanwhile (a controller ignoring the lockout) raise nothing more.
      await d.ran(actuator_id, at);
      await d.read(sensor_id, 8, at + 10 * SECOND);

      const [alert, ...more] = await d.alerts(`prototype_id=${prototype_id}&state=all`);
      expect(more).toEqual([]);
      expect(alert).toMatchObject({
        kind: 'lockout',
        severity: 'critical',
        state: 'active',
        actuator_id,
        sensor_id: null,
        prototype_id,
        raised_at: iso(at),
        acknowledged_by: null,
      });
      expect((await service.get(`/alerts?sensor_id=${sensor_id}&state=all`, { token })).body).toEqual([]);
      const locked = await stream.next((e) => e.event === 'actuator' && JSON.parse(e.data).actuator?.lockout !== null);
      expect(JSON.parse(locked.data).actuator).toMatchObject({ actuator_id, lockout: { since: iso(at) } });
      const raised = await stream.next((e) => e.event === 'alert' && JSON.parse(e.data).event === 'raised');
      expect(JSON.parse(raised.data).alert).toEqual(alert);
      const published = await mqtt.waitFor((m) => m.topic === `${prefix}/alerts` && JSON.parse(m.text).event === 'raised');
      expect(JSON.parse(published.text).alert).toEqual(alert);

      service.clock.now = at + 3600 * SECOND;
      const unlock = await service.post(`/actuators/${actuator_id}/unlock`, undefined, { token });
      expect(unlock.status).toBe(200);
      await service.app.alertsSettled();
      const cleared = (await d.alerts(`prototype_id=${prototype_id}&state=all`))[0];
      expect(cleared).toMatchObject({
        alert_id: alert.alert_id,
        state: 'cleared',
        cleared_at: iso(at + 3600 * SECOND),
        acknowledged_by: 'grower',
        acknowledged_at: iso(at + 3600 * SECOND),
      });
      await mqtt.waitFor((m) => m.topic === `${prefix}/alerts` && JSON.parse(m.text).event === 'cleared');
      expect((await service.store.actuators.get(actuator_id))?.unanswered_streak).toBe(0);

      // The count starts over: two more unanswered doses do not lock it again, a third does, with a new alert.
      const next = await d.doses(actuator_id, sensor_id, 8, 3, at + 3600 * SECOND);
      expect((await d.actuator(prototype_id, actuator_id))?.lockout).toBeNull();
      await d.read(sensor_id, 8, next);
      expect((await d.actuator(prototype_id, actuator_id))?.lockout).not.toBeNull();
      expect((await d.alerts(`prototype_id=${prototype_id}&state=all`)).map((a) => [a.kind, a.state])).toEqual([
        ['lockout', 'active'],
        ['lockout', 'cleared'],
      ]);
    } finally {
      stream.close();
    }
  });
});

describe.each(storeKinds())('a lockout across a restart (%s)', (kind) => {
  it('is kept, with its alert, and doses reported before the restart are judged after it', async () => {
    const database = await scratchDatabase(kind);
    const first = await startService(kind, { database });
    const d1 = dosing({ service: first });
    const { prototype_id, sensor_id, actuator_id } = await d1.tank({ lockout_after: 2 });
    const locked = await d1.tank({ lockout_after: 2 });
    await d1.read(locked.sensor_id, 8, await d1.doses(locked.actuator_id, locked.sensor_id, 8, 2, NOW));
    // One unanswered, and one waiting for its reading when the service stops.
    await d1.doses(actuator_id, sensor_id, 8, 2, NOW);
    await first.close();

    const second = await startService(kind, { database });
    try {
      const d2 = dosing({ service: second });
      expect((await d2.actuator(locked.prototype_id, locked.actuator_id))?.lockout).not.toBeNull();
      expect((await d2.alerts(`prototype_id=${locked.prototype_id}`)).map((a) => a.kind)).toEqual(['lockout']);
      expect((await d2.actuator(prototype_id, actuator_id))?.lockout).toBeNull();
      await d2.read(sensor_id, 8, NOW + 120 * SECOND);
      expect(await d2.answers(actuator_id)).toEqual([false, false]);
      expect((await d2.actuator(prototype_id, actuator_id))?.lockout).not.toBeNull();
    } finally {
      await second.close();
      await database.drop();
    }
  });
});
