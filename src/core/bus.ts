import type { Activation } from '../domain/activation.js';
import type { Alert, AlertEvent } from '../domain/alert.js';
import type { Note } from '../domain/note.js';
import type { Prototype } from '../domain/prototype.js';
import type { Sensor } from '../domain/sensor.js';
import type { StoredActivation, StoredActuator, StoredMeasurement, StoredRefill } from '../store/index.js';

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
  /**
   * `unlockedBy` is set on the change of `POST /actuators/{id}/unlock`: who ended the lockout
   * (null in open mode), for the lockout alert to record. `refill` is set on the change of
   * `POST /actuators/{id}/refill` (§15): the refill recorded, the stock it set being the actuator's.
   * An `activated` change carries the stock the dose left.
   */
  actuator:
    | {
        action: 'created' | 'updated' | 'activated';
        actuator: StoredActuator;
        unlockedBy?: string | null;
        /** Who changed its settings (null in open mode), on a settings update. */
        changedBy?: string | null;
        refill?: StoredRefill;
      }
    | { action: 'deleted'; actuatorId: number };
  /**
   * An actuator and its decision (§3.3, §14), whenever either changes, the instants time alone
   * causes included (see actuators/decision-watcher.ts). `state.reason` is the stable code;
   * `state.conditionMet` whether the condition of §3.3 holds on the newest value whatever the
   * reason (a `limit` with `conditionMet` is a limit holding back a pump that would run). Worked
   * out by every instance for itself: never relayed.
   */
  decision: {
    actuator: StoredActuator;
    /** `reason` is the decision's stable code (§14); `conditionMet` whether the condition holds, whatever the reason. */
    state: Activation & { conditionMet: boolean };
  };
  /**
   * A dose committed by a run report (§14), after the `actuator` `activated` change of the same
   * report, with its volume (§15). Relayed: the rolling limits of every instance count it.
   */
  dose: { dose: StoredActivation };
  /**
   * A controller gone silent or back (§14 `controller_timeout`): `offline: true` when an enabled
   * actuator with a `controller_timeout` had neither a state read nor a run report for that long
   * (published by a timer at that instant, `at` = the instant it went offline, epoch ms);
   * `offline: false` at the first read or report after that (`at` = its time). Relayed, so the
   * next read through any instance clears it; with several instances each one's timer may
   * publish `offline: true` (act on the ones `isRelayed` says were not relayed, or deduplicate).
   */
  controller: { actuatorId: number; offline: boolean; at: number };
  /** An alert raised, escalated (either way), cleared or acknowledged (§11). */
  alert: { event: AlertEvent; alert: Alert };
  /** A note of a prototype's journal written, changed or deleted (§15). */
  note: { action: 'created' | 'updated'; note: Note } | { action: 'deleted'; noteId: number; prototypeId: number };
  /**
   * Tokens of a user revoked: those of a token generation older than `generation` (every token:
   * the user removed or all its tokens revoked), the session tokens of a session generation older
   * than `sessionGeneration` (a logout, a new password), or the device token `tokenId`. The event
   * streams they opened end.
   */
  tokensRevoked: { userId: number; generation?: number; sessionGeneration?: number; tokenId?: number };
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
    dose: new Set(),
    controller: new Set(),
    alert: new Set(),
    note: new Set(),
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
