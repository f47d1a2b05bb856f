import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/** Nutrients A, B, then pH, one at a time with mixing and a pause between parts, through the decision over HTTP on both stores. */
const NOW = Date.UTC(2026, 10, 22, 12);
const SECOND = 1000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(storeKinds())('the dosing sequence (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
  });
  afterAll(() => service?.close());

  const state = async (id: number) => (await service.get(`/actuators/${id}/state`)).body;
  const read = async (sensor_id: number, value: number, at: number) => {
    service.clock.now = at;
    expect((await service.post('/measurements', { sensor_id, value, timestamp: iso(at) })).status).toBe(200);
  };
  const ran = async (id: number, at: number) => {
    service.clock.now = at;
    expect((await service.patch(`/actuators/${id}/last_activated`)).status).toBe(200);
  };

  it('A before B before pH, never together, each waiting for the mixing of the one before', async () => {
    expect((await service.post('/prototypes', { prototype_id: 500, prototype_name: 'tank' })).status).toBe(200);
    const ec = (
      await service.post('/sensors/', {
        sensor_type: 'ec',
        prototype_id: 500,
        sensor_unit: 'mS/cm',
        threshold_critically_low: 0,
        threshold_low: 0.5,
        threshold_high: 3,
        threshold_critically_high: 5,
      })
    ).body.sensor_id;
    const ph = (await service.post('/sensors/', { ...phSensorBody, threshold_high: 14, prototype_id: 500 })).body.sensor_id;
    const part = async (actuator_type: string, sensor_id: number, condition: string, value: number, dose_order: number) => {
      const res = await service.post('/actuators', {
        actuator_type,
        sensor_id,
        condition_value: value,
        activation_condition: condition,
        activation_period: 600,
        activation_duration: 5,
        response_delay: 120,
        dose_order,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      service.clock.now = NOW; // creation sets last_activated: start from a period ago below
      return res.body.actuator_id as number;
    };
    const a = await part('nutrients_A_pump', ec, 'low', 1.2, 1);
    const b = await part('nutrients_B_pump', ec, 'low', 1.2, 2);
    const acid = await part('acid_pump', ph, 'high', 6.5, 3);
    let t = NOW + 700 * SECOND; // every period elapsed since creation
    await read(ec, 0.8, t);
    await read(ph, 7.2, t);
    expect(await state(a)).toMatchObject({ activate: true, reason: 'ok' });
    const bWaits = await state(b);
    expect(bWaits).toMatchObject({ activate: false, reason: 'sequenced' });
    expect(bWaits.status).toContain(`actuator ${a}`);
    expect(await state(acid)).toMatchObject({ activate: false, reason: 'sequenced' });

    // A runs; B waits for A's mixing (120 s), pH too.
    await ran(a, (t += 10 * SECOND));
    service.clock.now = t + 60 * SECOND;
    expect(await state(b)).toMatchObject({ activate: false, reason: 'sequenced' });
    expect((await state(b)).status).toContain('mix');
    expect(await state(a)).toMatchObject({ activate: false, reason: 'waiting' });
    service.clock.now = t + 120 * SECOND;
    expect(await state(b)).toMatchObject({ activate: true, reason: 'ok' });
    expect(await state(acid)).toMatchObject({ activate: false, reason: 'sequenced' });

    // B's dose is the claim the read above made; B runs and reports. pH waits for B's mixing,
    // counted from that claim, then doses.
    const bClaimed = service.clock.now as number;
    await ran(b, t + 125 * SECOND);
    service.clock.now = bClaimed + 119 * SECOND;
    expect(await state(acid)).toMatchObject({ activate: false, reason: 'sequenced' });
    service.clock.now = bClaimed + 120 * SECOND;
    expect(await state(acid)).toMatchObject({ activate: true, reason: 'ok' });
  });
});
