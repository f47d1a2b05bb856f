import { describe, expect, it } from 'vitest';
import { changeBus } from '../../src/core/bus.js';
import { decisionWatcher } from '../../src/actuators/decision-watcher.js';
import type { StoredActuator, StoredMeasurement } from '../../src/store/index.js';
import { manualTimers } from '../helpers/manual-timers.js';
import { sensorTrustDefaults, storedActuatorSafety } from '../helpers/bodies.js';
import { decisionInputs } from '../../src/actuators/decision-inputs.js';

const NOW = Date.UTC(2026, 10, 22, 12);
/** Runs while its sensor (1) reads above 7. */
const PUMP: StoredActuator = {
  actuator_id: 1,
  actuator_type: 'acid_pump',
  actuator_name: null,
  sensor_id: 1,
  condition_value: 7,
  activation_condition: 'high',
  activation_period: 0,
  activation_duration: 2,
  enabled: true,
  last_activated: NOW - 60_000,
  ...storedActuatorSafety,
};
const reading = (measurement_id: number, value: number, ago: number): StoredMeasurement => ({
  measurement_id,
  sensor_id: 1,
  value,
  timestamp: NOW - ago,
});

/**
 * The races of a deleted newest measurement, ordered by hand: the store's answers to "newest of
 * sensor 1" are held until the test releases them, as a slow query would be. The readings the
 * test uses were heard on the bus at the start (received since this process started).
 */
function setUp(initial: StoredMeasurement | undefined) {
  const bus = changeBus({
    onListenerError: (error) => {
      throw error;
    },
  });
  const reads: { resolve(row: StoredMeasurement | undefined): void }[] = [];
  let answerAtOnce = true;
  const store = {
    actuators: { all: async () => [PUMP], get: async () => PUMP },
    interlocks: { of: async () => [] },
    activations: { since: async () => [] },
    sensors: {
      get: async () => ({ sensor_id: 1, sensor_type: 'ph', prototype_id: 0, ...sensorTrustDefaults }),
    },
    prototypes: { get: async () => ({ prototype_id: 0, prototype_name: 'tank', paused_until: null }) },
    measurements: {
      last: (): Promise<StoredMeasurement | undefined> =>
        answerAtOnce ? Promise.resolve(initial) : new Promise((resolve) => reads.push({ resolve })),
    },
  };
  const clock = { now: NOW as number | undefined };
  const log = {
    info: () => {},
    warn: () => {},
    error: (details: object) => {
      throw Object.assign(new Error('logged'), details);
    },
  };
  const now = () => clock.now ?? NOW;
  const inputs = decisionInputs({ store: store as never, bus, now, staleAfterMs: 3600_000, processStartedAt: NOW - 60_000, log });
  // Every reading the tests use was received since the start.
  bus.publish('measurements', { rows: [reading(1, 5, 5000)] });
  const watcher = decisionWatcher({ store: store as never, inputs, bus, timers: manualTimers(clock).timers, log });
  const decisions: boolean[] = [];
  bus.subscribe('decision', ({ state }) => decisions.push(state.activate));
  return {
    bus,
    watcher,
    decisions,
    reads,
    holdReads: () => {
      answerAtOnce = false;
    },
  };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('decision watcher and deleted measurements', () => {
  it('a newer measurement committed while the newest is read again is kept, even if older than the deleted one', async () => {
    const newest = reading(3, 6, 1000);
    const t = setUp(newest);
    await t.watcher.start();
    expect(t.watcher.stateOf(1)?.activate).toBe(false);
    t.holdReads();
    t.bus.publish('measurementDeleted', { measurement: newest });
    // Committed after the read's snapshot: older than the deleted row, newer than what the read finds.
    const late = reading(4, 9, 1500);
    t.bus.publish('measurements', { rows: [late] });
    await settle();
    expect(t.reads).toHaveLength(1);
    t.reads[0].resolve(reading(1, 5, 5000));
    await settle();
    // A reading heard while reading makes the read start over: it finds the late one.
    expect(t.reads).toHaveLength(2);
    t.reads[1].resolve(late);
    await settle();
    expect(t.watcher.stateOf(1)?.activate).toBe(true);
    expect(t.decisions).toEqual([true]);
  });

  it('a second delete while the read is under way reads again, and only the later answer counts', async () => {
    const newest = reading(3, 6, 1000);
    const t = setUp(newest);
    await t.watcher.start();
    t.holdReads();
    t.bus.publish('measurementDeleted', { measurement: newest });
    // The first read may answer the row the second delete removes.
    const next = reading(2, 9, 2000);
    t.bus.publish('measurementDeleted', { measurement: next });
    await settle();
    // One read under way, started over when it answers (the second delete may have removed its answer).
    expect(t.reads).toHaveLength(1);
    t.reads[0].resolve(next);
    await settle();
    expect(t.reads).toHaveLength(2);
    t.reads[1].resolve(reading(1, 6.5, 3000));
    await settle();
    expect(t.watcher.stateOf(1)).toMatchObject({ activate: false, status: 'OK' });
    expect(t.decisions).toEqual([]);
  });

  it('the delete of a measurement that is not the newest reads nothing and decides nothing', async () => {
    const t = setUp(reading(3, 9, 1000));
    await t.watcher.start();
    t.holdReads();
    t.bus.publish('measurementDeleted', { measurement: reading(2, 6, 2000) });
    t.bus.publish('measurementDeleted', { measurement: { ...reading(7, 6, 0), sensor_id: 2 } });
    await settle();
    expect(t.reads).toHaveLength(0);
    expect(t.watcher.stateOf(1)?.activate).toBe(true);
    expect(t.decisions).toEqual([]);
  });
});
