import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Changes, changeBus, type Topic } from '../../src/core/bus.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { type ActuatorWithInterlocks, actuatorView } from '../../src/core/actuator-view.js';

const THRESHOLDS = { threshold_critically_low: 0, threshold_low: 1, threshold_high: 2, threshold_critically_high: 3 };
const SENSOR = { sensor_type: 'ph', prototype_id: 0, sensor_unit: 'pH', ...THRESHOLDS };
const ACTUATOR = {
  actuator_type: 'acid_pump',
  sensor_id: 1,
  condition_value: 6,
  activation_condition: 'high',
  activation_period: 60,
  activation_duration: 2,
};

/**
 * The services publish a change for every committed write, and nothing for a write that was
 * refused or rolled back. The listeners here record what they hear, as SSE streams and MQTT
 * publications will.
 */
describe.each(storeKinds())('changes published by the services (%s)', (kind) => {
  let service: TestService;
  const heard: { topic: Topic; change: Changes[Topic] }[] = [];
  const bus = changeBus({
    onListenerError: (error) => {
      throw error;
    },
  });
  for (const topic of ['measurements', 'measurementDeleted', 'generated', 'prototype', 'sensor', 'actuator'] as const) {
    bus.subscribe(topic, (change) => heard.push({ topic, change }));
  }
  beforeAll(async () => {
    service = await startService(kind, { bus });
  });
  afterAll(() => service?.close());
  beforeEach(() => {
    heard.length = 0;
  });

  it('measurements: the stored rows with their ids, once committed', async () => {
    const res = await service.post('/measurements', [
      { sensor_id: 1, value: 1.5, timestamp: '2026-11-22T09:00:00Z' },
      { sensor_id: 2, value: 2.5, timestamp: '2026-11-22T09:00:01Z' },
    ]);
    expect(res.status).toBe(200);
    expect(heard).toHaveLength(1);
    expect(heard[0].topic).toBe('measurements');
    const { rows } = heard[0].change as Changes['measurements'];
    expect(rows.map((r) => ({ ...r, timestamp: new Date(r.timestamp).toISOString() }))).toEqual(res.body);
  });

  it('measurements refused (unknown sensor, future timestamp): nothing', async () => {
    expect(
      (
        await service.post('/measurements', [
          { sensor_id: 1, value: 1 },
          { sensor_id: 999, value: 2 },
        ])
      ).status,
    ).toBe(404);
    expect((await service.post('/measurements', { sensor_id: 1, value: 1, timestamp: '2999-01-01T00:00:00Z' })).status).toBe(422);
    expect(heard).toEqual([]);
  });

  it('prototypes: created once; a taken id publishes nothing', async () => {
    const res = await service.post('/prototypes', { prototype_id: 5, prototype_name: 'tank' });
    expect(res.status).toBe(200);
    expect((await service.post('/prototypes', { prototype_id: 5, prototype_name: 'again' })).status).toBe(409);
    expect(heard).toEqual([{ topic: 'prototype', change: { action: 'created', prototype: res.body } }]);
  });

  it('sensors: created and updated as committed; refused and rolled-back writes publish nothing', async () => {
    const created = await service.post('/sensors/', SENSOR);
    expect(created.status).toBe(200);
    expect((await service.post('/sensors/', { ...SENSOR, threshold_low: 5 })).status).toBe(422);
    expect((await service.post('/sensors/', { ...SENSOR, prototype_id: 77 })).status).toBe(404);
    expect(heard).toEqual([{ topic: 'sensor', change: { action: 'created', sensor: created.body } }]);

    // The first element is written inside the transaction before the second fails: rolled back, never told.
    heard.length = 0;
    const id = created.body.sensor_id;
    expect((await service.patch('/sensors', [{ sensor_id: id, sensor_unit: 'x' }, { sensor_id: 999 }])).status).toBe(404);
    expect(
      (
        await service.patch('/sensors', [
          { sensor_id: id, sensor_unit: 'x' },
          { sensor_id: 1, threshold_high: -1 },
        ])
      ).status,
    ).toBe(422);
    expect(heard).toEqual([]);

    const patched = await service.patch('/sensors', [
      { sensor_id: id, sensor_unit: 'mV' },
      { sensor_id: 1, threshold_high: 2.5 },
    ]);
    expect(patched.status).toBe(200);
    expect(heard).toEqual(patched.body.map((sensor: unknown) => ({ topic: 'sensor', change: { action: 'updated', sensor } })));
  });

  it('actuators: created, updated and activated as committed; refused writes publish nothing', async () => {
    const created = await service.post('/actuators', ACTUATOR);
    expect(created.status).toBe(200);
    expect((await service.post('/actuators', { ...ACTUATOR, sensor_id: 999 })).status).toBe(404);
    const id = created.body.actuator_id;
    expect((await service.patch('/actuators', [{ actuator_id: id, condition_value: 1 }, { actuator_id: 999 }])).status).toBe(404);
    expect((await service.patch('/actuators', [{ actuator_id: id, sensor_id: 999 }])).status).toBe(404);
    expect((await service.request('PATCH', '/actuators/999/last_activated')).status).toBe(404);
    const updated = await service.patch('/actuators', [{ actuator_id: id, condition_value: 7 }]);
    expect(updated.status).toBe(200);
    const activated = await service.request('PATCH', `/actuators/${id}/last_activated`);
    expect(activated.status).toBe(200);

    const told = heard.map(({ topic, change }) => {
      expect(topic).toBe('actuator');
      const { action, actuator } = change as Extract<Changes['actuator'], { actuator: unknown }>;
      // The change carries the stored row (with its interlocks); the API answers its view of it.
      return { action, ...actuatorView(actuator as ActuatorWithInterlocks) };
    });
    expect(told).toEqual([
      { action: 'created', ...created.body },
      { action: 'updated', ...updated.body[0] },
      // The change carries the row as stored: the run report's contact (last_polled) is written later, in a batch.
      { action: 'activated', ...activated.body, last_polled: null },
    ]);
  });

  it('deletes: the id of what is gone, once committed; a refused or missing delete publishes nothing', async () => {
    await service.post('/prototypes', { prototype_id: 9, prototype_name: 'doomed' });
    const sensor = (await service.post('/sensors/', { ...SENSOR, prototype_id: 9 })).body;
    const actuator = (await service.post('/actuators', { ...ACTUATOR, sensor_id: sensor.sensor_id })).body;
    const cascaded = (await service.post('/actuators', { ...ACTUATOR, sensor_id: sensor.sensor_id })).body;
    await service.post('/measurements', { sensor_id: sensor.sensor_id, value: 1 });
    heard.length = 0;

    expect((await service.request('DELETE', `/sensors/${sensor.sensor_id}`)).status).toBe(409);
    expect((await service.request('DELETE', '/prototypes/9')).status).toBe(409);
    expect((await service.request('DELETE', '/actuators/99999')).status).toBe(404);
    expect((await service.request('DELETE', '/sensors/99999')).status).toBe(404);
    expect(heard).toEqual([]);

    expect((await service.request('DELETE', `/actuators/${actuator.actuator_id}`)).status).toBe(204);
    expect((await service.request('DELETE', '/prototypes/9?cascade=true')).status).toBe(204);
    expect(heard).toEqual([
      { topic: 'actuator', change: { action: 'deleted', actuatorId: actuator.actuator_id } },
      // What the cascade took with it, each as if deleted on its own: actuators, then sensors.
      { topic: 'actuator', change: { action: 'deleted', actuatorId: cascaded.actuator_id } },
      { topic: 'sensor', change: { action: 'deleted', sensorId: sensor.sensor_id } },
      { topic: 'prototype', change: { action: 'deleted', prototypeId: 9 } },
    ]);
  });

  it('a deleted measurement: the row as it was stored, once committed; a missing one publishes nothing', async () => {
    const [kept, doomed] = (
      await service.post('/measurements', [
        { sensor_id: 2, value: 1.25, timestamp: '2026-11-22T10:00:00Z' },
        { sensor_id: 2, value: 2.75, timestamp: '2026-11-22T10:00:01.5Z' },
      ])
    ).body;
    heard.length = 0;
    expect((await service.request('DELETE', '/measurements/2147483000')).status).toBe(404);
    expect(heard).toEqual([]);
    expect((await service.request('DELETE', `/measurements/${doomed.measurement_id}`)).status).toBe(204);
    expect(heard).toEqual([
      { topic: 'measurementDeleted', change: { measurement: { ...doomed, timestamp: Date.parse(doomed.timestamp) } } },
    ]);
    expect((await service.get('/measurements/2/last')).body).toEqual(kept);
  });

  it('synthetic data: the sensors and counts once committed; refused options publish nothing', async () => {
    // Refused while a pump is enabled: the ones made above are disabled in the store, unheard.
    await service.store.actuators.disable((await service.store.actuators.all()).map((a) => a.actuator_id));
    expect(
      (await service.post('/Measurement/Random', { nb_measurements: 10, yearly_measurements_ratio: 0.9, dayly_measurements_ratio: 0.9 }))
        .status,
    ).toBe(422);
    expect(heard).toEqual([]);
    const res = await service.post('/Measurement/Random', { nb_measurements: 10 });
    expect(res.status).toBe(200);
    const sensors = (await service.get('/sensors/0')).body.map((s: { sensor_id: number }) => s.sensor_id);
    expect(heard).toEqual([
      { topic: 'generated', change: { sensorIds: sensors, generated: res.body.generated, deleted: res.body.deleted } },
    ]);
  });
});

describe('changes are published after the commit (SQLite, read from another connection as the change is told)', () => {
  it('another connection already sees what a change tells', async () => {
    const bus = changeBus();
    const service = await startService('sqlite', { bus });
    const other = new SQLite(service.database.url.replace(/^sqlite:/, ''), { readonly: true });
    const seen: unknown[] = [];
    bus.subscribe('sensor', (change) => {
      if (change.action !== 'deleted')
        seen.push(other.prepare('select sensor_unit from sensors where sensor_id = ?').get(change.sensor.sensor_id));
    });
    bus.subscribe('measurements', ({ rows }) => {
      seen.push(other.prepare('select value from measurements where measurement_id = ?').get(rows[0].measurement_id));
    });
    try {
      const created = await service.post('/sensors/', SENSOR);
      await service.patch('/sensors', [{ sensor_id: created.body.sensor_id, sensor_unit: 'mV' }]);
      await service.post('/measurements', { sensor_id: created.body.sensor_id, value: 4.25 });
      expect(seen).toEqual([{ sensor_unit: 'pH' }, { sensor_unit: 'mV' }, { value: 4.25 }]);
    } finally {
      other.close();
      await service.close();
    }
  });
});
