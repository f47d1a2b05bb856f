import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Changes, changeBus } from '../../src/core/bus.js';
import type { Alert } from '../../src/domain/alert.js';
import { phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { openStream } from '../helpers/sse.js';
import { eventually } from '../helpers/eventually.js';
import { storeKinds } from '../helpers/stores.js';
import { type WebhookReceiver, webhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * The limit and controller_offline alerts (docs/api.md §14), driven by the decision and controller
 * changes published on the service's bus, as the decision watcher and controller timer publish them.
 */
const NOW = Date.UTC(2026, 10, 22, 12);
const iso = (ms: number) => new Date(ms).toISOString();
const PUMP = {
  actuator_type: 'acid_pump',
  condition_value: 6.5,
  activation_condition: 'high',
  activation_period: 60,
  activation_duration: 3,
};

describe.each(storeKinds())('actuator alerts from the bus (%s)', (kind) => {
  const bus = changeBus();
  let service: TestService;
  let hook: WebhookReceiver;
  beforeAll(async () => {
    hook = await webhookReceiver();
    service = await startService(kind, { bus, env: { ALERT_WEBHOOK_URLS: hook.url } });
    service.clock.now = NOW;
  });
  afterAll(async () => {
    await service?.close();
    await hook?.close();
  });

  const newPump = async (fields: Record<string, unknown> = {}) => {
    const sensor_id = (await service.post('/sensors/', phSensorBody)).body.sensor_id as number;
    // The service's own watcher decides a new pump once (on PostgreSQL after a read): waited for,
    // so that its decision cannot land between the ones a test publishes.
    const decided = new Set<number>();
    const unsubscribe = bus.subscribe('decision', ({ actuator }) => decided.add(actuator.actuator_id));
    try {
      const res = await service.post('/actuators', { ...PUMP, sensor_id, ...fields });
      expect(res.status).toBe(200);
      await eventually(() => decided.has(res.body.actuator_id), 'the first decision of the new pump');
      await service.app.alertsSettled();
      return (await service.store.actuators.get(res.body.actuator_id))!;
    } finally {
      unsubscribe();
    }
  };
  const decide = async (actuator: Changes['decision']['actuator'], reason: string, conditionMet: boolean) => {
    bus.publish('decision', {
      actuator,
      state: { activate: false, status: reason, reason, conditionMet, duration: 3, period: 60 },
    });
    await service.app.alertsSettled();
  };
  const alertsOf = async (actuatorId: number): Promise<Alert[]> =>
    ((await service.get('/alerts?state=all&prototype_id=0')).body as Alert[]).filter((a) => a.actuator_id === actuatorId);

  it('limit: raised while a limit holds back a pump whose condition holds, once; cleared when that stops', async () => {
    const pump = await newPump({ max_doses_per_hour: 1 });
    const stream = await openStream(`${service.url}/events?types=alert`);
    try {
      await decide(pump, 'limit', false);
      expect(await alertsOf(pump.actuator_id)).toEqual([]);
      await decide(pump, 'limit', true);
      await decide(pump, 'limit', true);
      service.clock.now = NOW + 1000;
      await decide(pump, 'waiting', true);
      const alerts = await alertsOf(pump.actuator_id);
      expect(alerts.map((a) => [a.kind, a.severity, a.state, a.raised_at, a.cleared_at])).toEqual([
        ['limit', 'warning', 'cleared', iso(NOW), iso(NOW + 1000)],
      ]);
      expect(alerts[0]).toMatchObject({ actuator_id: pump.actuator_id, sensor_id: null, prototype_id: 0 });
      await stream.next((e) => JSON.parse(e.data).event === 'cleared');
      expect(stream.events.map((e) => JSON.parse(e.data).event)).toEqual(['raised', 'cleared']);
      await eventually(
        () => hook.received.some((r) => r.body.alert.alert_id === alerts[0].alert_id && r.body.event === 'cleared'),
        'the webhook of the cleared limit alert',
      );
    } finally {
      stream.close();
      service.clock.now = NOW;
    }
  });

  it('controller_offline: critical, for an enabled actuator with a controller_timeout, raised at the instant given, cleared by online', async () => {
    const pump = await newPump({ controller_timeout: 300 });
    const untimed = await newPump();
    const disabled = await newPump({ controller_timeout: 300, enabled: false });
    for (const actuatorId of [pump.actuator_id, untimed.actuator_id, disabled.actuator_id]) {
      bus.publish('controller', { actuatorId, offline: true, at: NOW - 5000 });
    }
    bus.publish('controller', { actuatorId: pump.actuator_id, offline: true, at: NOW - 4000 });
    await service.app.alertsSettled();
    expect(await alertsOf(untimed.actuator_id)).toEqual([]);
    expect(await alertsOf(disabled.actuator_id)).toEqual([]);
    expect((await alertsOf(pump.actuator_id)).map((a) => [a.kind, a.severity, a.state, a.raised_at])).toEqual([
      ['controller_offline', 'critical', 'active', iso(NOW - 5000)],
    ]);
    const wh = await eventually(
      () => hook.received.find((r) => r.body.alert.actuator_id === pump.actuator_id && r.body.event === 'raised'),
      'the webhook of the offline alert',
    );
    expect(wh.body.alert.kind).toBe('controller_offline');

    bus.publish('controller', { actuatorId: pump.actuator_id, offline: false, at: NOW });
    await service.app.alertsSettled();
    expect((await alertsOf(pump.actuator_id)).map((a) => [a.state, a.cleared_at])).toEqual([['cleared', iso(NOW)]]);

    // Disabling the actuator ends an offline alert: its controller no longer has to answer.
    bus.publish('controller', { actuatorId: pump.actuator_id, offline: true, at: NOW });
    await service.app.alertsSettled();
    expect((await service.patch('/actuators', [{ actuator_id: pump.actuator_id, enabled: false }])).status).toBe(200);
    await service.app.alertsSettled();
    expect((await alertsOf(pump.actuator_id)).map((a) => a.state)).toEqual(['cleared', 'cleared']);
  });
});
