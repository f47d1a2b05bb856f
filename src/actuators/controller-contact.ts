/**
 * When each pump controller was last heard from (docs/api.md §14): every state read (the route and
 * the fast path in front of it) and every run report notes the time in memory — the actuator's
 * note updated in place, no store access, nothing allocated but on the first poll of a batch —
 * and the notes are written to the store in batches, at most
 * FLUSH_EVERY_MS apart, so `last_polled` is right to within that, survives a restart and is seen
 * by the other instances.
 *
 * For each enabled actuator with a `controller_timeout`, one alarm rings at the instant its
 * controller turns offline (`controllerOfflineAt`); a poll does not move the alarm, the alarm
 * looks again when it rings (reading the stored `last_polled` back, for polls through another
 * instance) and rings again later if the controller was heard meanwhile. Going offline and coming
 * back are published on the bus (`controller`); the alerts act on that.
 */
import type { ActuatorWithInterlocks } from '../core/actuator-view.js';
import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';
import { controllerOfflineAt } from '../safety/index.js';
import type { Store, StoredActuator } from '../store/index.js';

/** `last_polled` is written at most this long after the poll (docs/api.md §14: "to within 10 s"). */
export const FLUSH_EVERY_MS = 10_000;

export interface ControllerContactDeps {
  store: Pick<Store, 'actuators' | 'transaction'>;
  bus: ChangeBus;
  now: () => number;
  timers: Timers;
  log: Logger;
}

interface Watched {
  actuator: StoredActuator;
  alarm?: unknown;
  /** Published (here or by another instance) as offline, and not back since. */
  offline: boolean;
}

/** This process's note of one actuator's controller, updated in place on every contact. */
interface Note {
  /** The last contact noted here. */
  at: number;
  /** Noted since the last batch taken for the store. */
  unwritten: boolean;
}

const watches = (a: StoredActuator) => a.enabled === true && a.controller_timeout !== null;

export function controllerContact({ store, bus, now, timers, log }: ControllerContactDeps) {
  /** The last contact noted by this process, per actuator. */
  const noted = new Map<number, Note>();
  /** The actuators whose notes are not written to the store yet. */
  let unwritten: number[] = [];
  let flushAlarm: unknown;
  let flushing: Promise<void> | undefined;
  const watched = new Map<number, Watched>();
  const unsubscribe: (() => void)[] = [];
  let stopped = false;

  /** The later of the stored `last_polled` and what this process noted since. */
  const lastPolled = (actuator: Pick<StoredActuator, 'actuator_id' | 'last_polled'>): number | null => {
    const mine = noted.get(actuator.actuator_id)?.at;
    const stored = actuator.last_polled ?? null;
    if (mine === undefined) return stored;
    return stored === null || mine > stored ? mine : stored;
  };

  /** Marks the note as waiting for the next batch. */
  function toWrite(actuatorId: number, note: Note): void {
    note.unwritten = true;
    unwritten.push(actuatorId);
    scheduleFlush();
  }

  async function flush(): Promise<void> {
    flushAlarm = undefined;
    const batch = new Map<number, number>();
    for (const id of unwritten) {
      const note = noted.get(id);
      if (note?.unwritten) {
        note.unwritten = false;
        batch.set(id, note.at);
      }
    }
    unwritten = [];
    if (batch.size === 0) return;
    try {
      await store.transaction((tx) => tx.actuators.notePolled(batch));
    } catch (error) {
      log.warn({ err: error, actuators: batch.size }, 'could not write when controllers last polled; trying again');
      // The note itself holds the latest contact, heard meanwhile or not.
      for (const id of batch.keys()) {
        const note = noted.get(id);
        if (note && !note.unwritten) toWrite(id, note);
      }
    }
  }

  function scheduleFlush(): void {
    if (flushAlarm !== undefined || stopped) return;
    flushAlarm = timers.set(() => {
      flushing = flush().finally(() => (flushing = undefined));
    }, FLUSH_EVERY_MS);
  }

  function offlineAt(w: Watched): number | null {
    const { actuator } = w;
    return watches(actuator) ? controllerOfflineAt(lastPolled(actuator), actuator.last_activated, actuator.controller_timeout) : null;
  }

  function arm(w: Watched): void {
    if (w.alarm !== undefined) timers.clear(w.alarm);
    w.alarm = undefined;
    const at = offlineAt(w);
    if (at === null || stopped || w.offline) return;
    w.alarm = timers.set(() => {
      w.alarm = undefined;
      void ring(w);
    }, at - now());
  }

  /** At the instant the controller would turn offline: looks again (the store may know of polls through another instance). */
  async function ring(w: Watched): Promise<void> {
    const id = w.actuator.actuator_id;
    try {
      const stored = await store.actuators.get(id);
      if (watched.get(id) !== w || !stored) return;
      w.actuator = {
        ...w.actuator,
        last_polled: stored.last_polled,
        last_activated: Math.max(stored.last_activated, w.actuator.last_activated),
      };
    } catch (error) {
      log.warn({ err: error, actuatorId: id }, 'could not read back when the controller last polled');
      if (watched.get(id) !== w) return;
    }
    const at = offlineAt(w);
    if (at === null || w.offline) return;
    if (now() < at) return arm(w);
    w.offline = true;
    bus.publish('controller', { actuatorId: id, offline: true, at });
  }

  function back(w: Watched, at: number): void {
    if (!w.offline) return;
    w.offline = false;
    bus.publish('controller', { actuatorId: w.actuator.actuator_id, offline: false, at });
  }

  function track(actuator: StoredActuator): void {
    const known = watched.get(actuator.actuator_id);
    const w: Watched = known ?? { actuator, offline: false };
    // A row read before a poll noted here may carry an older last_polled: keep the later one.
    w.actuator = actuator;
    watched.set(actuator.actuator_id, w);
    // Disabled, or its timeout turned off: it no longer counts as offline.
    if (!watches(actuator)) back(w, now());
    arm(w);
  }

  function forget(actuatorId: number): void {
    const w = watched.get(actuatorId);
    if (w?.alarm !== undefined) timers.clear(w.alarm);
    watched.delete(actuatorId);
    // Its place in the list of unwritten notes, if any, is skipped by the next batch.
    noted.delete(actuatorId);
  }

  return {
    /** Notes a state read or a run report now: in memory; written in the next batch. */
    heardFrom(actuatorId: number): void {
      const at = now();
      let note = noted.get(actuatorId);
      if (note === undefined) {
        note = { at, unwritten: false };
        noted.set(actuatorId, note);
      } else note.at = at;
      if (!note.unwritten) toWrite(actuatorId, note);
      const w = watched.get(actuatorId);
      if (w?.offline) {
        back(w, at);
        arm(w);
      }
    },

    lastPolled,

    /** The actuator with `last_polled` as known here (the stored one, or a later poll noted since). */
    withLastPolled<A extends StoredActuator | ActuatorWithInterlocks>(actuator: A): A {
      return { ...actuator, last_polled: lastPolled(actuator) };
    },

    /** Reads the actuators and sets their alarms, then follows their changes. */
    async start(): Promise<void> {
      unsubscribe.push(
        bus.subscribe('actuator', (change) => {
          if (change.action === 'deleted') forget(change.actuatorId);
          else track(change.actuator);
        }),
        bus.subscribe('controller', (change) => {
          // Also what another instance published: this one's next poll clears it, or its own alarm need not ring.
          const w = watched.get(change.actuatorId);
          if (!w) return;
          w.offline = change.offline;
          arm(w);
        }),
      );
      for (const actuator of await store.actuators.all()) if (!watched.has(actuator.actuator_id)) track(actuator);
    },

    /** Stops the alarms and writes what is noted. */
    async stop(): Promise<void> {
      stopped = true;
      for (const stop of unsubscribe) stop();
      for (const w of watched.values()) if (w.alarm !== undefined) timers.clear(w.alarm);
      if (flushAlarm !== undefined) timers.clear(flushAlarm);
      flushAlarm = undefined;
      await flushing;
      await flush();
    },
  };
}

export type ControllerContact = ReturnType<typeof controllerContact>;
