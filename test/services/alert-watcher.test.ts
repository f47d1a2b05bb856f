import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alertWatcher } from '../../src/alerts/watcher.js';
import { changeBus } from '../../src/core/bus.js';
import { openStore, type Store, type StoredMeasurement } from '../../src/store/index.js';
import { temperatureSensorBody } from '../helpers/bodies.js';
import { manualTimers } from '../helpers/manual-timers.js';
import { type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const SENSOR = temperatureSensorBody;

describe.each(storeKinds())('the alert watcher on the ingest path (%s)', (kind) => {
  let database: ScratchDatabase;
  let store: Store;
  let transactions: number;
  let watcher: ReturnType<typeof alertWatcher>;
  const bus = changeBus();
  const clock = { now: NOW as number | undefined };

  beforeEach(async () => {
    database = await scratchDatabase(kind);
    store = await openStore(database.url, { seedDefaults: false });
    await store.prototypes.create({ prototype_id: 0, prototype_name: 'tank' });
    transactions = 0;
    // Every evaluation is one transaction: counting them counts evaluations.
    const counted: Store = { ...store, transaction: (work) => (transactions++, store.transaction(work)) };
    watcher = alertWatcher({
      store: counted,
      bus,
      now: () => clock.now as number,
      timers: manualTimers(clock).timers,
      settings: { staleAfterMs: 3600_000, clearAfterMs: 60_000, webhookUrls: [] },
      log: { info: () => {}, error: () => {}, warn: () => {} },
    });
    await watcher.start();
  });
  afterEach(async () => {
    await watcher.stop();
    await store.close();
    await database.drop();
  });

  const ingest = async (rows: Omit<StoredMeasurement, 'measurement_id'>[]) => {
    const stored = await store.ingest(rows);
    bus.publish('measurements', { rows: stored });
    return stored;
  };

  it('batches at an unchanged level cost no evaluation at all; a change of level costs one per batch, not per row', async () => {
    const sensor = await store.sensors.create(SENSOR);
    bus.publish('sensor', { action: 'created', sensor });
    await ingest([{ sensor_id: sensor.sensor_id, value: 25, timestamp: NOW }]);
    await watcher.idle();
    const settled = transactions;
    for (let i = 1; i <= 50; i++) await ingest([{ sensor_id: sensor.sensor_id, value: 21 + (i % 5), timestamp: NOW + i }]);
    await watcher.idle();
    expect(transactions).toBe(settled);

    // 1,000 rows wavering across every threshold, in one batch: one evaluation, by the newest row.
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      sensor_id: sensor.sensor_id,
      value: [5, 15, 25, 35, 45][i % 5],
      timestamp: NOW + 100 + i,
    }));
    await ingest(rows);
    await watcher.idle();
    expect(transactions).toBe(settled + 1);
    expect((await store.alerts.active([sensor.sensor_id])).map((a) => [a.kind, a.severity, a.value, a.peak])).toEqual([
      ['high', 'critical', 45, 45],
    ]);
  });

  it('a batch over many sensors evaluates each by its own newest row, once', async () => {
    const sensors: number[] = [];
    for (let i = 0; i < 20; i++) {
      const sensor = await store.sensors.create(SENSOR);
      bus.publish('sensor', { action: 'created', sensor });
      sensors.push(sensor.sensor_id);
    }
    const before = transactions;
    // Per sensor: an old high reading, then its newest, low for the even sensors and ok for the odd ones.
    const rows = sensors.flatMap((sensor_id, i) => [
      { sensor_id, value: 35, timestamp: NOW - 10 },
      { sensor_id, value: i % 2 === 0 ? 15 : 25, timestamp: NOW },
    ]);
    await ingest(rows.reverse());
    await watcher.idle();
    expect(transactions).toBe(before + 20);
    const active = await store.alerts.active(sensors);
    expect(active.map((a) => a.sensor_id).sort((x, y) => x - y)).toEqual(sensors.filter((_, i) => i % 2 === 0));
    expect(active.every((a) => a.kind === 'low' && a.value === 15)).toBe(true);
  });
  it('a sensor it has not heard of (created by another process) is evaluated and its alert published', async () => {
    const sensor = await store.sensors.create(SENSOR);
    const heard: string[] = [];
    const stop = bus.subscribe('alert', ({ event, alert }) => heard.push(`${event} ${alert.kind} ${alert.sensor_id}`));
    await ingest([{ sensor_id: sensor.sensor_id, value: 45, timestamp: NOW }]);
    await watcher.idle();
    stop();
    expect(heard).toEqual([`raised high ${sensor.sensor_id}`]);
  });
});
