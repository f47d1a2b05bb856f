interface Waiter<V> {
  resolve(value: V): void;
  reject(error: unknown): void;
}

interface KeyState<V> {
  /** Waiting for the read under way. */
  current: Waiter<V>[];
  /** Arrived while it was under way: they wait for the next read, started after they came. */
  next: Waiter<V>[];
}

/**
 * Reads of one key (a sensor's newest measurement, an actuator) that arrive while a read of it
 * is under way share the next one. A request is never answered by a read that began before it
 * arrived, so it sees every commit acknowledged before it was sent; but many dashboards polling
 * one sensor cost the database one query per round trip instead of one each.
 */
export function coalesceReads<K, V>(read: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const underWay = new Map<K, KeyState<V>>();

  function start(key: K, state: KeyState<V>): void {
    const settle = (finish: (waiter: Waiter<V>) => void) => {
      for (const waiter of state.current) finish(waiter);
      if (state.next.length === 0) {
        underWay.delete(key);
        return;
      }
      state.current = state.next;
      state.next = [];
      start(key, state);
    };
    let reading: Promise<V>;
    try {
      reading = read(key);
    } catch (error) {
      reading = Promise.reject(error);
    }
    reading.then(
      (value) => settle((waiter) => waiter.resolve(value)),
      (error: unknown) => settle((waiter) => waiter.reject(error)),
    );
  }

  return (key) =>
    new Promise<V>((resolve, reject) => {
      const state = underWay.get(key);
      if (state) {
        state.next.push({ resolve, reject });
        return;
      }
      const fresh: KeyState<V> = { current: [{ resolve, reject }], next: [] };
      underWay.set(key, fresh);
      start(key, fresh);
    });
}
