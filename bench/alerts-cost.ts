/**
 * `npx tsx bench/alerts-cost.ts`: what the alert watcher's listener costs the ingest path per
 * committed batch when no level changes (the common case, an active alert included), against the
 * bus with no alert listener. The store is a stub that fails the run if an evaluation is asked
 * for: at an unchanged level none may be. Prints nanoseconds per batch.
 */
import { alertWatcher } from '../src/alerts/watcher.js';
import { changeBus } from '../src/core/bus.js';
import { systemTimers } from '../src/core/timers.js';
import type { StoredMeasurement } from '../src/store/index.js';

const batches = Number(process.env.BENCH_CALLS ?? 1_000_000);
// As bench/run.ts posts: sensor 1 (ec 0/1/2/3) at 6.4, critically high with its alert active.
const sensors = [1, 2, 3].map((sensor_id) => ({
  sensor_id,
  prototype_id: 0,
  sensor_type: 'ec' as const,
  sensor_unit: 'mS/cm',
  threshold_critically_low: 0,
  threshold_low: 1,
  threshold_high: 2,
  threshold_critically_high: 3,
}));
const active = sensors.map((s) => ({
  alert_id: s.sensor_id,
  sensor_id: s.sensor_id,
  prototype_id: 0,
  kind: 'high',
  severity: 'critical',
  state: 'active',
  peak: 6.4,
  last_value: 6.4,
}));
const store = {
  sensors: { list: async () => sensors, get: async (id: number) => sensors[id - 1] },
  alerts: {
    levels: async () => sensors.map((s) => ({ sensor_id: s.sensor_id, level: 'critically_high', ok_since: null })),
    active: async () => active,
  },
  measurements: { last: async (id: number) => ({ measurement_id: id, sensor_id: id, value: 6.4, timestamp: Date.now() }) },
  transaction: async () => {
    throw new Error('an evaluation was asked for at an unchanged level');
  },
};

async function run(withWatcher: boolean): Promise<[number, number]> {
  const bus = changeBus();
  // The live events listen to every commit anyway: a listener of the same cost on both sides.
  bus.subscribe('measurements', () => {});
  const watcher = alertWatcher({
    store: store as never,
    bus,
    now: Date.now,
    timers: systemTimers,
    settings: { staleAfterMs: 86_400_000, clearAfterMs: 60_000, webhookUrls: [] },
    log: { error: (d) => console.error(d), warn: () => {}, info: () => {} },
  });
  if (withWatcher) await watcher.start();
  let id = 10;
  const at = Date.now();
  const single: StoredMeasurement[][] = Array.from({ length: batches }, (_, i) => [
    { measurement_id: id++, sensor_id: 1, value: 6.4, timestamp: at + i },
  ]);
  let started = performance.now();
  for (const rows of single) bus.publish('measurements', { rows });
  const perSingle = ((performance.now() - started) * 1e6) / batches;
  const many = batches / 100;
  const hundred: StoredMeasurement[][] = Array.from({ length: many }, (_, i) =>
    Array.from({ length: 100 }, (_, k) => ({
      measurement_id: id++,
      sensor_id: 1 + (k % 3),
      value: 6.4,
      timestamp: at + batches + i * 100 + k,
    })),
  );
  started = performance.now();
  for (const rows of hundred) bus.publish('measurements', { rows });
  const perHundred = ((performance.now() - started) * 1e6) / many;
  await watcher.stop();
  return [perSingle, perHundred];
}

for (let round = 1; round <= 3; round++) {
  const [bareSingle, bareHundred] = await run(false);
  const [single, hundred] = await run(true);
  console.log(
    `round ${round}: one-row batch ${(single - bareSingle).toFixed(0)} ns, 100-row batch over 3 sensors ${(hundred - bareHundred).toFixed(0)} ns (bus alone ${bareSingle.toFixed(0)} / ${bareHundred.toFixed(0)} ns)`,
  );
}
process.exit(0);
