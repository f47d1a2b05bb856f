import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionInputs } from '../../src/actuators/decision-inputs.js';
import { keptDecisions } from '../../src/actuators/kept-decisions.js';
import { changeBus } from '../../src/core/bus.js';
import type { StoredMeasurement } from '../../src/store/index.js';
import { phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

const silent = { info() {}, warn() {}, error() {}, debug() {} } as never;

/**
 * The decision inputs kept in memory (actuators/decision-inputs.ts) tell their listeners which
 * actuators a change concerns; every other change of what they keep moves their `epoch`, so a
 * decision kept on them (kept-decisions.ts) is never answered once it may be out of date. The
 * inputs here run on a store the service filled, and hear only the changes this test publishes.
 */
describe.each(storeKinds())('the epoch of the decision inputs (%s)', (kind) => {
  let service: TestService;
  let sensor: number;
  let other: number;
  let actuator: number;
  let stored: StoredMeasurement;
  beforeAll(async () => {
    service = await startService(kind);
    sensor = (await service.post('/sensors/', phSensorBody)).body.sensor_id;
    other = (await service.post('/sensors/', phSensorBody)).body.sensor_id;
    const pump = { actuator_type: 'base_pump', condition_value: 5.5, activation_condition: 'low', activation_period: 0 };
    actuator = (await service.post('/actuators', { ...pump, sensor_id: sensor, activation_duration: 3 })).body.actuator_id;
    expect((await service.post('/measurements', { sensor_id: sensor, value: 5 })).status).toBe(200);
    stored = (await service.store.measurements.last(sensor))!;
  });
  afterAll(() => service?.close());

  /** Inputs started now: the reading already stored was received before their start. */
  function started() {
    const bus = changeBus({
      onListenerError: (error) => {
        throw error;
      },
    });
    const inputs = decisionInputs({
      store: service.store,
      bus,
      now: Date.now,
      staleAfterMs: 3600_000,
      processStartedAt: Date.now(),
      log: silent,
    });
    const told: number[][] = [];
    inputs.onChange((ids) => told.push([...ids]));
    return { bus, inputs, told };
  }
  const reading = (fields: Partial<StoredMeasurement>): StoredMeasurement => ({ ...stored, ...fields });

  it('moves when pieces are read or dropped, and not for a change told to the listeners', async () => {
    const { bus, inputs, told } = started();
    const before = inputs.epoch();
    expect(inputs.input(actuator)).toBeInstanceOf(Promise);
    await inputs.input(actuator);
    const kept = inputs.epoch();
    expect(kept).toBeGreaterThan(before);
    expect(inputs.input(actuator)).not.toBeInstanceOf(Promise);
    expect(inputs.epoch()).toBe(kept);

    // The first reading heard since the start moves it; later ones are told, actuator by actuator.
    bus.publish('measurements', { rows: [reading({ measurement_id: stored.measurement_id + 1, timestamp: stored.timestamp + 1 })] });
    const heard = inputs.epoch();
    expect(heard).toBeGreaterThan(kept);
    expect(told).toEqual([[actuator]]);
    bus.publish('measurements', { rows: [reading({ measurement_id: stored.measurement_id + 2, timestamp: stored.timestamp + 2 })] });
    expect(inputs.epoch()).toBe(heard);
    expect(told).toEqual([[actuator], [actuator]]);

    // The newest reading deleted: the sensor is dropped (and read again).
    bus.publish('measurementDeleted', {
      measurement: reading({ measurement_id: stored.measurement_id + 2, timestamp: stored.timestamp + 2 }),
    });
    const dropped = inputs.epoch();
    expect(dropped).toBeGreaterThan(heard);

    inputs.stop();
    expect(inputs.epoch()).toBeGreaterThan(dropped);
  });

  it('moves when a reading relayed late marks the kept readings as received since the start: the kept decision follows', async () => {
    const { bus, inputs } = started();
    const decisions = keptDecisions({ inputs, now: Date.now });
    expect((await decisions.of(actuator))?.decision.reason).toBe('restarted');
    expect((decisions.of(actuator) as { decision: { reason: string } }).decision.reason).toBe('restarted');
    // A reading of another sensor, committed by another instance since the start with an id no later
    // than the kept one: ids only grow, so the kept reading was stored since the start too. Nothing
    // the actuator reads changed, so no listener is told of it.
    bus.publish('measurements', { rows: [reading({ sensor_id: other, measurement_id: stored.measurement_id })] });
    expect((decisions.of(actuator) as { decision: { reason: string } }).decision).toMatchObject({ reason: 'ok', activate: true });
    inputs.stop();
  });
});
