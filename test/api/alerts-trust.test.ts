import { describe, expect, it } from 'vitest';
import type { Alert } from '../../src/domain/alert.js';
import { liveService } from '../helpers/sse.js';
import { storeKinds } from '../helpers/stores.js';

/** Invalid and stuck sensors (docs/api.md §14): their levels and alerts, on both stores. */
const NOW = Date.UTC(2026, 10, 22, 12);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const iso = (ms: number) => new Date(ms).toISOString();
/** A pH sensor (valid 0..14 by default) whose thresholds leave 4..9 ok. */
const SENSOR = {
  sensor_type: 'ph',
  sensor_unit: 'pH',
  threshold_critically_low: 3,
  threshold_low: 4,
  threshold_high: 9,
  threshold_critically_high: 10,
};

describe.each(storeKinds())('invalid and stuck sensors (%s)', (kind) => {
  const { service, manual } = liveService(kind, NOW, (timers) => ({
    env: { STALE_AFTER: 'PT1H', ALERT_CLEAR_AFTER: 'PT1M' },
    app: { alerts: { timers } },
  }));
  let nextPrototype = 100;

  const newSensor = async (fields: Record<string, unknown> = {}) => {
    const prototype_id = nextPrototype++;
    expect((await service.post('/prototypes', { prototype_id, prototype_name: `tank ${prototype_id}` })).status).toBe(200);
    const sensor = await service.post('/sensors/', { ...SENSOR, prototype_id, ...fields });
    expect(sensor.status).toBe(200);
    return { prototype_id, sensor_id: sensor.body.sensor_id as number };
  };
  const measure = async (sensor_id: number, value: number) => {
    expect((await service.post('/measurements', { sensor_id, value, timestamp: iso(service.clock.now as number) })).status).toBe(200);
    await service.app.alertsSettled();
  };
  const advanceTo = async (at: number) => {
    manual.advanceTo(at);
    await service.app.alertsSettled();
  };
  const alertsOf = async (sensor_id: number): Promise<Alert[]> => (await service.get(`/alerts?sensor_id=${sensor_id}&state=all`)).body;
  const levelOf = async (prototype_id: number) => (await service.get(`/prototypes/${prototype_id}/status`)).body.sensors[0].level;

  it('a reading outside the valid range (the type default, or valid_min/valid_max) is level invalid and raises one critical alert', async () => {
    const { prototype_id, sensor_id } = await newSensor();
    await measure(sensor_id, 14);
    expect(await levelOf(prototype_id)).toBe('critically_high');
    await measure(sensor_id, 14.5);
    expect(await levelOf(prototype_id)).toBe('invalid');
    await measure(sensor_id, 15);
    const alerts = await alertsOf(sensor_id);
    expect(alerts.map((a) => [a.kind, a.severity, a.state, a.value])).toEqual([
      ['invalid', 'critical', 'active', 14.5],
      ['high', 'critical', 'cleared', 14],
    ]);
    expect(alerts[0]).toMatchObject({ sensor_id, prototype_id, actuator_id: null, last_value: 15 });

    const narrow = await newSensor({ valid_min: 2, valid_max: 12 });
    await measure(narrow.sensor_id, 12);
    expect(await levelOf(narrow.prototype_id)).toBe('critically_high');
    await measure(narrow.sensor_id, 12.01);
    expect(await levelOf(narrow.prototype_id)).toBe('invalid');
    await measure(narrow.sensor_id, 1.99);
    expect((await alertsOf(narrow.sensor_id)).filter((a) => a.kind === 'invalid').map((a) => a.state)).toEqual(['active']);
  });

  it('an invalid alert clears after ALERT_CLEAR_AFTER back at ok, and stays critical meanwhile', async () => {
    const { prototype_id, sensor_id } = await newSensor();
    await measure(sensor_id, -1);
    service.clock.now = NOW + SECOND;
    await measure(sensor_id, 6);
    expect(await levelOf(prototype_id)).toBe('ok');
    await advanceTo(NOW + SECOND + MINUTE - 1);
    expect((await alertsOf(sensor_id))[0]).toMatchObject({ kind: 'invalid', severity: 'critical', state: 'active', last_value: 6 });
    await advanceTo(NOW + SECOND + MINUTE);
    expect((await alertsOf(sensor_id)).map((a) => [a.kind, a.state, a.cleared_at])).toEqual([
      ['invalid', 'cleared', iso(NOW + SECOND + MINUTE)],
    ]);
  });

  it('a sensor repeating one value raises stuck at the instant the third equal reading’s run is stuck_after old, cleared by a different one', async () => {
    const { prototype_id, sensor_id } = await newSensor({ stuck_after: 600 });
    await measure(sensor_id, 6);
    service.clock.now = NOW + MINUTE;
    await measure(sensor_id, 7);
    service.clock.now = NOW + 2 * MINUTE;
    await measure(sensor_id, 7);
    // Two equal readings never make a sensor stuck, however old.
    await advanceTo(NOW + 20 * MINUTE);
    expect(await alertsOf(sensor_id)).toEqual([]);
    await measure(sensor_id, 7);
    // The run began at NOW + 1 min: stuck from NOW + 11 min on, which has passed.
    expect(await levelOf(prototype_id)).toBe('stuck');
    expect((await alertsOf(sensor_id)).map((a) => [a.kind, a.severity, a.state, a.raised_at])).toEqual([
      ['stuck', 'warning', 'active', iso(NOW + 20 * MINUTE)],
    ]);
    service.clock.now = NOW + 21 * MINUTE;
    await measure(sensor_id, 7.01);
    expect(await levelOf(prototype_id)).toBe('ok');
    expect((await alertsOf(sensor_id)).map((a) => [a.kind, a.state, a.cleared_at])).toEqual([['stuck', 'cleared', iso(NOW + 21 * MINUTE)]]);

    // Three equal readings in a row: the alarm raises it at exactly stuck_after after the first of them.
    for (const minutes of [22, 23, 24]) {
      service.clock.now = NOW + minutes * MINUTE;
      await measure(sensor_id, 5);
    }
    await advanceTo(NOW + 32 * MINUTE - 1);
    expect((await alertsOf(sensor_id)).filter((a) => a.state === 'active')).toEqual([]);
    await advanceTo(NOW + 32 * MINUTE);
    const [stuck] = await alertsOf(sensor_id);
    expect(stuck).toMatchObject({ kind: 'stuck', state: 'active', raised_at: iso(NOW + 32 * MINUTE), value: 5 });
    expect(await levelOf(prototype_id)).toBe('stuck');
    expect((await alertsOf(sensor_id)).filter((a) => a.kind === 'stuck')).toHaveLength(2);
  });
});
