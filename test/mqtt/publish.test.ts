import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeBus, type ChangeBus } from '../../src/core/bus.js';
import type { Alert } from '../../src/domain/alert.js';
import { manualTimers } from '../helpers/manual-timers.js';
import { cleanBroker, eventually, mqttEnv, serviceClientIds, type TestClient, testClient, uniquePrefix } from '../helpers/mqtt.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const SENSOR = {
  sensor_type: 'ec',
  sensor_unit: 'mS/cm',
  threshold_critically_low: 0,
  threshold_low: 1,
  threshold_high: 2,
  threshold_critically_high: 3,
};

describe.each(storeKinds())('MQTT publications (%s)', (kind) => {
  let service: TestService;
  let observer: TestClient;
  let prefix: string;
  let bus: ChangeBus;
  let manual: ReturnType<typeof manualTimers>;

  beforeEach(async () => {
    prefix = uniquePrefix();
    bus = changeBus();
    const clock = { now: undefined as number | undefined };
    manual = manualTimers(clock);
    service = await startService(kind, {
      env: { ...mqttEnv(prefix), STALE_AFTER: 'PT1H' },
      bus,
      app: { liveEvents: { timers: manual.timers } },
    });
    Object.defineProperty(clock, 'now', { get: () => service.clock.now, set: (v) => (service.clock.now = v) });
    service.clock.now = NOW;
    await eventually(async () => (await service.get('/healthz')).body.mqtt === 'connected', 'the service to subscribe');
    observer = await testClient();
    await observer.subscribe(`${prefix}/#`);
    await observer.subscribe(`${prefix}-ha/#`);
  });

  afterEach(async () => {
    await observer.close();
    await service.close();
    await cleanBroker(prefix, serviceClientIds(prefix));
  });

  const on = (topic: string, match: (payload: any) => boolean = () => true) =>
    observer.waitFor((m) => m.topic === `${prefix}/${topic}` && m.text !== '' && match(JSON.parse(m.text)));

  it('publishes the actuator’s decision, retained, when a measurement crosses the condition and when the period elapses', async () => {
    await service.post('/prototypes', { prototype_id: 20, prototype_name: 'tank' });
    const sensor = (await service.post('/sensors/', { ...SENSOR, prototype_id: 20 })).body;
    const actuator = (
      await service.post('/actuators', {
        actuator_type: 'acid_pump',
        sensor_id: sensor.sensor_id,
        condition_value: 5.5,
        activation_condition: 'low',
        activation_period: 60,
        activation_duration: 3,
      })
    ).body;
    const state = `actuators/${actuator.actuator_id}/state`;
    await on(state, (s) => s.status === 'No measurement for the sensor');

    await service.post('/measurements', { sensor_id: sensor.sensor_id, value: 4, timestamp: iso(NOW) });
    await on(state, (s) => s.status === 'Activation period not elapsed');

    // Time alone: the period elapses and the pump should run.
    manual.advanceTo(NOW + 60_000);
    const elapsed = await on(state, (s) => s.activate === true);
    expect(JSON.parse(elapsed.text)).toEqual({ activate: true, status: 'OK', reason: 'ok', duration: 3, period: 60 });

    // A measurement back above the condition: it should not.
    const seen = observer.received.length;
    await service.post('/measurements', { sensor_id: sensor.sensor_id, value: 6, timestamp: iso(NOW + 60_000) });
    const crossed = await observer.waitFor((m) => observer.received.indexOf(m) >= seen && m.topic === `${prefix}/${state}`);
    expect(JSON.parse(crossed.text)).toEqual({ activate: false, status: 'OK', reason: 'ok', duration: 3, period: 60 });

    // A controller that subscribes later finds the current decision retained.
    const controller = await testClient();
    await controller.subscribe(`${prefix}/${state}`);
    const retained = await controller.waitFor((m) => m.topic === `${prefix}/${state}`);
    expect(retained.retain).toBe(true);
    expect(JSON.parse(retained.text)).toEqual({ activate: false, status: 'OK', reason: 'ok', duration: 3, period: 60 });
    await controller.close();
  });

  it('publishes alert events on <prefix>/alerts', async () => {
    const alert: Alert = {
      alert_id: 7,
      sensor_id: 1,
      actuator_id: null,
      prototype_id: 0,
      kind: 'high',
      severity: 'critical',
      state: 'active',
      raised_at: iso(NOW),
      cleared_at: null,
      acknowledged_at: null,
      acknowledged_by: null,
      value: 3.5,
      peak: 3.5,
      last_value: 3.5,
    };
    bus.publish('alert', { event: 'raised', alert });
    const published = await on('alerts');
    expect(JSON.parse(published.text)).toEqual({ event: 'raised', alert });
    expect(published.retain).toBe(false);
  });

  it('publishes the alerts the alerts engine raises from a measurement', async () => {
    // The default EC sensor: critically high above 3.
    await service.post('/measurements', { sensor_id: 1, value: 3.5, timestamp: iso(NOW) });
    const raised = JSON.parse((await on('alerts', (a) => a.event === 'raised')).text);
    expect(raised.alert).toMatchObject({ sensor_id: 1, kind: 'high', severity: 'critical', state: 'active', value: 3.5 });
  });

  it('publishes Home Assistant discovery configs: every sensor and actuator, updated on change, removed on delete', async () => {
    const ha = (path: string) => `${prefix}-ha/${path}/config`;
    const config = (path: string, match: (c: any) => boolean = () => true) =>
      observer.waitFor((m) => m.topic === ha(path) && m.text !== '' && match(JSON.parse(m.text)));
    // The defaults: three sensors and one actuator, with their prototype as the device.
    const ec = JSON.parse((await config(`sensor/${prefix}/sensor_1`)).text);
    expect(ec).toMatchObject({
      unique_id: `${prefix}_sensor_1`,
      state_topic: `${prefix}/sensors/1/last`,
      device_class: 'conductivity',
      unit_of_measurement: 'mS/cm',
      device: { name: 'default_prototype' },
    });
    await config(`sensor/${prefix}/sensor_3`, (c) => c.device_class === 'temperature' && c.unit_of_measurement === '°C');
    await config(`binary_sensor/${prefix}/actuator_1`, (c) => c.state_topic === `${prefix}/actuators/1/state`);

    const created = (await service.post('/sensors/', { ...SENSOR, prototype_id: 0, sensor_type: 'humidity', sensor_unit: '%' })).body;
    await config(`sensor/${prefix}/sensor_${created.sensor_id}`, (c) => c.device_class === 'humidity');
    await service.patch('/sensors', [{ sensor_id: created.sensor_id, sensor_unit: 'percent' }]);
    await config(
      `sensor/${prefix}/sensor_${created.sensor_id}`,
      (c) => c.unit_of_measurement === 'percent' && c.device_class === undefined,
    );
    // A sensor's name, when it has one, is the entity's name.
    await service.patch('/sensors', [{ sensor_id: created.sensor_id, sensor_name: 'Tent humidity' }]);
    await config(`sensor/${prefix}/sensor_${created.sensor_id}`, (c) => c.name === 'Tent humidity');
    await service.patch('/actuators', [{ actuator_id: 1, actuator_name: 'Acid doser' }]);
    await config(`binary_sensor/${prefix}/actuator_1`, (c) => c.name === 'Acid doser');

    // Deleting the pH sensor takes its actuator with it: both entities go, and their retained values.
    await service.post('/measurements', { sensor_id: 2, value: 6.8 });
    await on('sensors/2/last');
    expect((await service.request('DELETE', '/sensors/2?cascade=true')).status).toBe(204);
    const emptied = (topic: string) => observer.waitFor((m) => m.topic === topic && m.text === '');
    await emptied(ha(`sensor/${prefix}/sensor_2`));
    await emptied(ha(`binary_sensor/${prefix}/actuator_1`));
    await emptied(`${prefix}/sensors/2/last`);
    await emptied(`${prefix}/actuators/1/state`);

    // A late subscriber (Home Assistant starting) finds the others, and not the deleted ones.
    const homeAssistant = await testClient();
    await homeAssistant.subscribe(`${prefix}-ha/#`);
    await homeAssistant.waitFor((m) => m.topic === ha(`sensor/${prefix}/sensor_${created.sensor_id}`));
    await homeAssistant.publish(`${prefix}-ha/probe`, 'x');
    await homeAssistant.waitFor((m) => m.topic === `${prefix}-ha/probe`);
    const topics = homeAssistant.received.filter((m) => m.retain).map((m) => m.topic);
    expect(topics).toContain(ha(`sensor/${prefix}/sensor_3`));
    expect(topics).not.toContain(ha(`sensor/${prefix}/sensor_2`));
    expect(topics).not.toContain(ha(`binary_sensor/${prefix}/actuator_1`));
    await homeAssistant.close();
  });

  it('publishes no discovery configs when MQTT_HA_DISCOVERY is off', async () => {
    const other = uniquePrefix();
    const quiet = await startService(kind, { env: { ...mqttEnv(other), MQTT_HA_DISCOVERY: 'false' } });
    try {
      const watcher = await testClient();
      await watcher.subscribe(`${other}/#`);
      await watcher.subscribe(`${other}-ha/#`);
      await eventually(async () => (await quiet.get('/healthz')).body.mqtt === 'connected', 'the second service to subscribe');
      // The snapshot's retained states arrive; discovery configs never do.
      await watcher.waitFor((m) => m.topic === `${other}/actuators/1/state`);
      await quiet.post('/sensors/', { ...SENSOR, prototype_id: 0 });
      await watcher.publish(`${other}-ha/probe`, 'x');
      await watcher.waitFor((m) => m.topic === `${other}-ha/probe`);
      expect(watcher.received.filter((m) => m.topic.startsWith(`${other}-ha/`) && m.topic !== `${other}-ha/probe`)).toEqual([]);
      await watcher.close();
    } finally {
      await quiet.close();
      await cleanBroker(other, serviceClientIds(other));
    }
  });
});
