import type { Activation } from '../domain/activation.js';
import type { Alert, AlertEvent } from '../schemas/alerts.js';
import type { Prototype } from '../schemas/prototypes.js';
import type { Sensor } from '../schemas/sensors.js';
import type { StoredActuator, StoredMeasurement } from '../store/index.js';

/**
 * Every change the services commit, by topic. A change is published only after its commit: a
 * rejected or rolled-back write publishes nothing.
 */
export interface Changes {
  /** Measurements stored, in the order they were given, with their ids. */
  measurements: { rows: readonly StoredMeasurement[] };
  /** One measurement removed by `DELETE /measurements/{id}` (not by retention, nor by a cascade: those say so elsewhere). */
  measurementDeleted: { measurement: StoredMeasurement };
  /** Synthetic data generated in bulk: too many rows to list, so the sensors and counts. */
  generated: { sensorIds: readonly number[]; generated: number; deleted: number };
  prototype: { action: 'created' | 'updated'; prototype: Prototype } | { action: 'deleted'; prototypeId: number };
  sensor: { action: 'created' | 'updated'; sensor: Sensor } | { action: 'deleted'; sensorId: number };
  actuator: { action: 'created' | 'updated' | 'activated'; actuator: StoredActuator } | { action: 'deleted'; actuatorId: number };
  /**
   * An actuator and its decision (§3.3), whenever either changes, the instants time alone causes
   * included (see events/decision-watcher.ts). Worked out by every instance for itself: never relayed.
   */
  decision: { actuator: StoredActuator; state: Activation };
  /** An alert raised, escalated (either way), cleared or acknowledged (§11). */
  alert: { event: AlertEvent; alert: Alert };
  /** A user's tokens older than `generation` revoked (a logout): the event streams they opened end. */
  tokensRevoked: { userId: number; generation: number };
}

export type Topic = keyof Changes;
export type Listener<T extends Topic> = (change: Changes[T]) => void;

export interface ChangeBus {
  /** Tells every listener of the topic, in the order they subscribed, before it returns. */
  publish<T extends Topic>(topic: T, change: Changes[T]): void;
  /** Listens to one topic; the function returned stops listening. */
  subscribe<T extends Topic>(topic: T, listener: Listener<T>): () => void;
}

export interface ChangeBusOptions {
  /**
   * A listener that throws must not fail the write that was already committed, nor keep the
   * other listeners from hearing of it: its error goes here.
   */
  onListenerError?(error: unknown, topic: Topic): void;
}

/**
 * The in-process bus of committed changes. Everything that reacts to a write — event streams,
 * MQTT publications, alerts — subscribes here rather than being called by the write path.
 * Delivery is synchronous: a listener that has slow work to do queues it itself.
 */
export function changeBus({
  onListenerError = (error) => console.error('change listener failed:', error),
}: ChangeBusOptions = {}): ChangeBus {
  const listeners: { [T in Topic]: Set<Listener<T>> } = {
    measurements: new Set(),
    measurementDeleted: new Set(),
    generated: new Set(),
    prototype: new Set(),
    sensor: new Set(),
    actuator: new Set(),
    decision: new Set(),
    alert: new Set(),
    tokensRevoked: new Set(),
  };

  return {
    publish(topic, change) {
      const subscribed = listeners[topic];
      // Nobody listening is the common case on the ingest path: nothing to do.
      if (subscribed.size === 0) return;
      // The listeners of the moment it was published: one subscribed meanwhile hears the next change.
      for (const listener of [...subscribed]) {
        if (!subscribed.has(listener)) continue;
        try {
          listener(change);
        } catch (error) {
          onListenerError(error, topic);
        }
      }
    },

    subscribe(topic, listener) {
      const subscribed = listeners[topic];
      // Wrapped, so the same function subscribed twice is told twice and stops one at a time.
      const entry: typeof listener = (change) => listener(change);
      subscribed.add(entry);
      return () => {
        subscribed.delete(entry);
      };
    },
  };
}
