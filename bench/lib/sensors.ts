import { openStore } from '../../src/store/index.js';

/** The sensor every bench store measures: a temperature sensor on prototype 0, thresholds 0 ≤ 10 ≤ 30 ≤ 40. */
export const BENCH_SENSOR = {
  sensor_type: 'temperature',
  prototype_id: 0,
  sensor_unit: 'Celsius',
  threshold_critically_low: 0,
  threshold_low: 10,
  threshold_high: 30,
  threshold_critically_high: 40,
} as const;

/** Creates bench sensors through the store (migrated, defaults seeded) until prototype 0 has `count` sensors. */
export async function createBenchSensors(databaseUrl: string, count: number): Promise<void> {
  const store = await openStore(databaseUrl);
  try {
    for (let i = (await store.sensors.listByPrototype(0)).length; i < count; i++) await store.sensors.create(BENCH_SENSOR);
  } finally {
    await store.close();
  }
}
