import { type Activation, activationFor, type LatestReading } from '../domain/activation.js';
import { nextDecisionChange } from '../domain/decision-change.js';
import type { Store, StoredActuator, StoredMeasurement } from '../store/index.js';
import type { ChangeBus } from './bus.js';
import type { Timers } from './timers.js';

export interface DecisionWatcherDeps {
  store: Pick<Store, 'actuators' | 'measurements'>;
  bus: ChangeBus;
  now: () => number;
  timers: Timers;
  staleAfterMs: number;
  log: { error(details: object, message: string): void };
}

interface Watched {
  actuator: StoredActuator;
  state: Activation;
  /** The alarm of the next instant time alone changes the decision, if there is one. */
  alarm?: unknown;
}

const sameState = (a: Activation, b: Activation) =>
  a.activate === b.activate && a.status === b.status && a.duration === b.duration && a.period === b.period;

/** Ties in timestamp go to the higher id, as the newest measurement is chosen everywhere else. */
const isNewer = (row: StoredMeasurement, than: LatestReading & { measurement_id?: number }) =>
  row.timestamp > than.timestamp || (row.timestamp === than.timestamp && row.measurement_id > (than.measurement_id ?? -1));

/**
 * Keeps every actuator's decision (§3.3) and publishes `decision` whenever the actuator or its
 * decision changes: on writes heard on the bus, and at the instants time alone changes it (the
 * period elapsing, the sensor turning stale). Each actuator has at most one alarm, set for the
 * next such instant as the pure decision computes it — no periodic sweep.
 */
export function decisionWatcher({ store, bus, now, timers, staleAfterMs, log }: DecisionWatcherDeps) {
  const watched = new Map<number, Watched>();
  /** The newest measurement of each sensor that has an actuator. */
  const latest = new Map<number, StoredMeasurement | undefined>();
  /**
   * The sensors whose newest measurement is being read again because it was deleted, each with
   * the newest measurement heard while that read is under way (it may have committed after the
   * read's snapshot). Only the latest read of a sensor is applied.
   */
  const rereads = new Map<number, { heard?: StoredMeasurement }>();
  const unsubscribe: (() => void)[] = [];
  let stopped = false;

  const actuatorsOf = (sensorId: number) => [...watched.values()].filter((w) => w.actuator.sensor_id === sensorId);

  function decide(entry: Watched): Activation {
    return activationFor(entry.actuator, latest.get(entry.actuator.sensor_id), now(), staleAfterMs);
  }

  function schedule(entry: Watched): void {
    if (entry.alarm !== undefined) timers.clear(entry.alarm);
    entry.alarm = undefined;
    if (stopped) return;
    const at = now();
    const next = nextDecisionChange(entry.actuator, latest.get(entry.actuator.sensor_id), at, staleAfterMs);
    if (next === undefined) return;
    entry.alarm = timers.set(() => {
      entry.alarm = undefined;
      if (watched.get(entry.actuator.actuator_id) === entry) refresh(entry, false);
    }, next - at);
  }

  /** Decides again; tells the bus when the actuator changed (`changed`) or its decision did. */
  function refresh(entry: Watched, changed: boolean): void {
    const state = decide(entry);
    const differs = !sameState(state, entry.state);
    entry.state = state;
    if (changed || differs) bus.publish('decision', { actuator: entry.actuator, state });
    schedule(entry);
  }

  function track(actuator: StoredActuator, changed: boolean): void {
    const known = watched.get(actuator.actuator_id);
    if (known) {
      known.actuator = actuator;
      refresh(known, changed);
      return;
    }
    const entry: Watched = { actuator, state: { activate: false, status: '', duration: 0, period: 0 } };
    watched.set(actuator.actuator_id, entry);
    if (latest.has(actuator.sensor_id)) return refresh(entry, changed);
    // A sensor not watched yet: its newest measurement is read first (one arriving meanwhile is kept if newer).
    void readLatest([actuator.sensor_id]).then(() => {
      if (watched.get(actuator.actuator_id) === entry) refresh(entry, changed);
    });
  }

  function forget(actuatorId: number): void {
    const entry = watched.get(actuatorId);
    if (!entry) return;
    if (entry.alarm !== undefined) timers.clear(entry.alarm);
    watched.delete(actuatorId);
    if (actuatorsOf(entry.actuator.sensor_id).length === 0) latest.delete(entry.actuator.sensor_id);
  }

  async function readLatest(sensorIds: readonly number[]): Promise<void> {
    await Promise.all(
      sensorIds.map(async (sensorId) => {
        try {
          const row = await store.measurements.last(sensorId);
          const known = latest.get(sensorId);
          // A measurement heard while reading is newer than what was read, or the same.
          if (!known || (row && isNewer(row, known))) latest.set(sensorId, row);
          else if (!latest.has(sensorId)) latest.set(sensorId, row);
        } catch (error) {
          log.error({ err: error, sensorId }, 'reading the newest measurement for an actuator failed');
        }
      }),
    );
  }

  /** After a bulk replacement the newest measurements are read again, then the decisions redone. */
  async function reread(sensorIds: readonly number[]): Promise<void> {
    const relevant = sensorIds.filter((id) => latest.has(id));
    for (const id of relevant) latest.delete(id);
    await readLatest(relevant);
    for (const id of relevant) for (const entry of actuatorsOf(id)) refresh(entry, false);
  }

  /**
   * A deleted measurement changes the decisions only when it was the newest of its sensor: the
   * newest is then read again (after the delete's commit, so from what remains) and the sensor's
   * actuators decided again. A delete heard while such a read is under way reads again, since the
   * read's answer may be the row just deleted.
   */
  function measurementDeleted(measurement: StoredMeasurement): void {
    const sensorId = measurement.sensor_id;
    if (!latest.has(sensorId)) return;
    if (!rereads.has(sensorId) && latest.get(sensorId)?.measurement_id !== measurement.measurement_id) return;
    const attempt: { heard?: StoredMeasurement } = {};
    rereads.set(sensorId, attempt);
    store.measurements.last(sensorId).then(
      (row) => {
        if (rereads.get(sensorId) !== attempt) return;
        rereads.delete(sensorId);
        if (!latest.has(sensorId)) return;
        const { heard } = attempt;
        latest.set(sensorId, heard && (!row || isNewer(heard, row)) ? heard : row);
        for (const entry of actuatorsOf(sensorId)) refresh(entry, false);
      },
      (error: unknown) => {
        if (rereads.get(sensorId) === attempt) rereads.delete(sensorId);
        log.error({ err: error, sensorId }, 'reading the newest measurement after a delete failed');
      },
    );
  }

  return {
    /** Reads every actuator and the newest measurement of their sensors, then starts listening. */
    async start(): Promise<void> {
      unsubscribe.push(
        bus.subscribe('actuator', (change) => {
          if (change.action === 'deleted') forget(change.actuatorId);
          else track(change.actuator, true);
        }),
        bus.subscribe('measurements', ({ rows }) => {
          const touched = new Set<number>();
          for (const row of rows) {
            if (!latest.has(row.sensor_id)) continue;
            const reread = rereads.get(row.sensor_id);
            if (reread && (!reread.heard || isNewer(row, reread.heard))) reread.heard = row;
            const known = latest.get(row.sensor_id);
            if (!known || isNewer(row, known)) {
              latest.set(row.sensor_id, row);
              touched.add(row.sensor_id);
            }
          }
          for (const sensorId of touched) for (const entry of actuatorsOf(sensorId)) refresh(entry, false);
        }),
        bus.subscribe('measurementDeleted', ({ measurement }) => measurementDeleted(measurement)),
        bus.subscribe('generated', ({ sensorIds }) => void reread(sensorIds)),
        bus.subscribe('sensor', (change) => {
          // A deleted sensor takes its actuators and measurements with it.
          if (change.action === 'deleted') for (const entry of actuatorsOf(change.sensorId)) forget(entry.actuator.actuator_id);
        }),
      );
      const actuators = await store.actuators.all();
      await readLatest([...new Set(actuators.map((a) => a.sensor_id))]);
      for (const actuator of actuators) {
        if (watched.has(actuator.actuator_id)) continue;
        const entry: Watched = { actuator, state: { activate: false, status: '', duration: 0, period: 0 } };
        watched.set(actuator.actuator_id, entry);
        entry.state = decide(entry);
        schedule(entry);
      }
    },

    /** The decision last published for an actuator (undefined for one not known). */
    stateOf(actuatorId: number): Activation | undefined {
      return watched.get(actuatorId)?.state;
    },

    stop(): void {
      stopped = true;
      for (const stop of unsubscribe) stop();
      for (const entry of watched.values()) if (entry.alarm !== undefined) timers.clear(entry.alarm);
      watched.clear();
      latest.clear();
      rereads.clear();
    },
  };
}

export type DecisionWatcher = ReturnType<typeof decisionWatcher>;
