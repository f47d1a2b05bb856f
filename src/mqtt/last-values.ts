import { measurementJson } from '../core/json-text.js';
import type { Store, StoredMeasurement } from '../store/index.js';
import type { Publications } from './publications.js';
import type { Topics } from './topics.js';

/**
 * The newest values are published at most this often (all sensors that changed meanwhile
 * together): a sensor written thousands of times a second is not republished as often, one
 * written every few seconds is published at once.
 */
export const LAST_INTERVAL_MS = 50;

/** Ties in timestamp go to the higher id, as the newest measurement is chosen everywhere else. */
const isNewer = (row: StoredMeasurement, than: StoredMeasurement | undefined) =>
  !than || row.timestamp > than.timestamp || (row.timestamp === than.timestamp && row.measurement_id > than.measurement_id);

export interface LastValuesDeps {
  out: Pick<Publications, 'send' | 'clear'>;
  topics: Pick<Topics, 'last'>;
  store: Pick<Store, 'measurements'>;
}

/** Each sensor's newest measurement, published retained on `<prefix>/sensors/<id>/last`; a burst publishes each sensor once. */
export function lastValues({ out, topics, store }: LastValuesDeps) {
  /** The newest measurement published per sensor. */
  const newest = new Map<number, StoredMeasurement>();
  /** Newest measurements waiting to be published. */
  const pending = new Map<number, StoredMeasurement>();
  let flushScheduled = false;
  let lastFlushAt = -Infinity;

  function flush(): void {
    flushScheduled = false;
    lastFlushAt = performance.now();
    for (const row of pending.values()) out.send('last', topics.last(row.sensor_id), measurementJson(row), 0, true);
    pending.clear();
  }

  function offer(row: StoredMeasurement): void {
    if (!isNewer(row, newest.get(row.sensor_id))) return;
    newest.set(row.sensor_id, row);
    pending.set(row.sensor_id, row);
    if (flushScheduled) return;
    flushScheduled = true;
    const wait = lastFlushAt + LAST_INTERVAL_MS - performance.now();
    if (wait > 0) setTimeout(flush, wait);
    else setImmediate(flush);
  }

  return {
    offer,

    /** The newest measurement published for a sensor. */
    newestOf: (sensorId: number) => newest.get(sensorId),

    /** After a delete or a bulk replacement the newest measurement is read again. */
    async reread(sensorId: number): Promise<void> {
      const row = await store.measurements.last(sensorId);
      newest.delete(sensorId);
      pending.delete(sensorId);
      if (row) offer(row);
      else out.clear('last', topics.last(sensorId));
    },

    /** A deleted sensor: its topic is emptied. */
    forget(sensorId: number): void {
      newest.delete(sensorId);
      pending.delete(sensorId);
      out.clear('last', topics.last(sensorId));
    },

    /** At a (re)connection: the sensor's newest value, the one read or a newer one heard meanwhile, published at once. */
    republish(sensorId: number, read: StoredMeasurement | undefined): void {
      const known = newest.get(sensorId);
      const row = read && isNewer(read, known) ? read : known;
      if (!row) return;
      newest.set(sensorId, row);
      out.send('last', topics.last(sensorId), measurementJson(row), 0, true);
    },
  };
}

export type LastValues = ReturnType<typeof lastValues>;
