/**
 * What the dosing decision reads (safety/inputs.ts), kept in memory where a poll reads it without
 * touching the store (DESIGN: "inputs kept where they are cheap to read"). Each piece is loaded
 * from the store the first time a decision needs it and then kept current from the bus of
 * committed changes — relayed ones included, so on PostgreSQL what another instance commits
 * (a reading, a dose, a lockout, a pause) reaches this one's decisions too:
 *
 * - per actuator: its settings (the bottle's stock included, which each run report's `actuator`
 *   change carries) and interlocks, and its doses of the last 24 h with their volumes (appended
 *   on each `dose` change, pruned as they leave the day), for the rolling limits;
 * - per sensor: its settings, its newest reading and the run of equal newest values (for
 *   `stuck`), moved forward by each `measurements` change;
 * - per prototype: its pause;
 * - the first measurement heard on the bus since this process started (for `restarted`: a
 *   reading received before the start never moves a pump).
 *
 * Anything the bus cannot say precisely (a deleted measurement, a bulk replacement, a reading
 * older than the newest) drops the piece, which is read again when next needed. A change heard
 * while a piece is being read makes the read start over, so no answer misses a committed change.
 * Listeners are told which actuators' inputs changed; the decision watcher decides them again.
 * What listeners are not told per actuator (a piece read or dropped, the first reading heard since
 * the start moving) moves the `epoch`: a decision made on kept inputs holds while neither says otherwise.
 */
import type { ActuatorWithInterlocks } from '../core/actuator-view.js';
import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { Sensor } from '../domain/sensor.js';
import {
  type ActuatorSafetySettings,
  DAY_SECONDS,
  type DecisionInput,
  type DoseRecord,
  type EqualRun,
  isInWindow,
  type SensorInput,
  STUCK_MIN_READINGS,
} from '../safety/index.js';
import type { MaybePromise, Store, StoredActivation, StoredActuator, StoredMeasurement } from '../store/index.js';
import { decide, nextDecisionChange } from '../safety/index.js';
import { sequencePauseFromEnv, type SequenceInput } from '../aims/decision-hook.js';
import type { SequenceMember } from '../aims/sequence.js';

export interface DecisionInputsDeps {
  store: Pick<Store, 'actuators' | 'interlocks' | 'activations' | 'sensors' | 'measurements' | 'prototypes'>;
  /** SEQUENCE_PAUSE in seconds (default: the environment's, else 60). */
  sequencePauseS?: number;
  bus: ChangeBus;
  now: () => number;
  staleAfterMs: number;
  /** When this service process started: readings heard before it never move a pump. */
  processStartedAt: number;
  log: Logger;
}

interface SensorEntry {
  settings: Sensor;
  newest: StoredMeasurement | null;
  /** The run of equal newest values, its count capped at what the stuck rule needs. */
  run: EqualRun | null;
}

interface ActuatorEntry {
  actuator: ActuatorWithInterlocks;
  /** Oldest first; at least every dose of the last 24 h. */
  doses: DoseRecord[];
}

/** Tells which actuators' inputs changed; `actuatorChanged` when an actuator itself did (its event is due even if its decision is the same). */
export type InputsListener = (actuatorIds: readonly number[], actuatorChanged: boolean) => void;

const DAY_MS = DAY_SECONDS * 1000;
/** How often a read that heard a change meanwhile starts over before its answer is taken as it is. */
const READ_ATTEMPTS = 5;

/** Ties in timestamp go to the higher id, as the newest measurement is chosen everywhere else. */
export const isNewer = (row: StoredMeasurement, than: StoredMeasurement) =>
  row.timestamp > than.timestamp || (row.timestamp === than.timestamp && row.measurement_id > than.measurement_id);

/**
 * Values read from the store on first use, kept until dropped; a drop during a read makes it read
 * again. `changed` hears every value kept or dropped.
 */
function lazyMap<K, V>(read: (key: K) => Promise<V | undefined>, changed: () => void) {
  const values = new Map<K, V>();
  const reading = new Map<K, Promise<V | undefined>>();
  const generation = new Map<K, number>();

  function drop(key: K): void {
    values.delete(key);
    generation.set(key, (generation.get(key) ?? 0) + 1);
    changed();
  }

  async function readFresh(key: K): Promise<V | undefined> {
    for (let attempt = 1; ; attempt++) {
      const before = generation.get(key) ?? 0;
      const value = await read(key);
      if ((generation.get(key) ?? 0) === before || attempt >= READ_ATTEMPTS) {
        if (value !== undefined) {
          values.set(key, value);
          changed();
        }
        return value;
      }
    }
  }

  return {
    values,
    peek: (key: K) => values.get(key),
    get(key: K): MaybePromise<V | undefined> {
      const known = values.get(key);
      if (known !== undefined) return known;
      let pending = reading.get(key);
      if (!pending) {
        pending = readFresh(key).finally(() => reading.delete(key));
        reading.set(key, pending);
      }
      return pending;
    },
    /** Forgets the value; a read under way starts over. */
    drop,
    /** Whether a change to `key` must wait for a read (none kept, one under way). */
    isReading: (key: K) => reading.has(key),
    clear(): void {
      for (const key of [...values.keys(), ...reading.keys()]) drop(key);
    },
  };
}

export function decisionInputs({
  store,
  bus,
  now,
  staleAfterMs,
  processStartedAt,
  log,
  sequencePauseS = sequencePauseFromEnv(),
}: DecisionInputsDeps) {
  const listeners = new Set<InputsListener>();
  /**
   * The smallest measurement id heard on the bus since the start: ids only grow, so a reading with
   * this id or a later one was stored since the start (relayed from another instance or not), and
   * one before it was not.
   */
  let firstHeardId = Number.POSITIVE_INFINITY;
  /**
   * Sensors filled with synthetic data since the start (`generated`), with the smallest id of a
   * real reading heard for them since (Infinity until one comes). Synthetic rows never count as
   * received since the start: until a real reading is the newest, the restart hold keeps the pump
   * waiting (docs/safety.md).
   */
  const realSinceGenerated = new Map<number, number>();
  /** Moves on every change of what is kept that the listeners are not told of actuator by actuator. */
  let epoch = 0;
  const moved = () => {
    epoch++;
  };

  const actuators = lazyMap<number, ActuatorEntry>(async (actuatorId) => {
    const actuator = await store.actuators.get(actuatorId);
    if (!actuator) return undefined;
    const [interlocks, doses] = await Promise.all([store.interlocks.of(actuatorId), store.activations.since(actuatorId, now() - DAY_MS)]);
    return { actuator: { ...actuator, interlocks }, doses: doses.map(doseRecord) };
  }, moved);

  const sensors = lazyMap<number, SensorEntry>(async (sensorId) => {
    const settings = await store.sensors.get(sensorId);
    if (!settings) return undefined;
    if (settings.stuck_after === null) return { settings, newest: (await store.measurements.last(sensorId)) ?? null, run: null };
    const found = await store.measurements.newestRun(sensorId, STUCK_MIN_READINGS);
    return { settings, newest: found?.newest ?? null, run: found?.run ?? null };
  }, moved);

  const pauses = lazyMap<number, { until: number | null }>(async (prototypeId) => {
    const prototype = await store.prototypes.get(prototypeId);
    return prototype && { until: prototype.paused_until };
  }, moved);

  function tell(actuatorIds: readonly number[], actuatorChanged = false): void {
    if (actuatorIds.length === 0) return;
    // A part of a dosing sequence decides on the others' inputs too (aims/).
    const ids = withSequenceSiblings(actuatorIds);
    for (const listener of [...listeners]) listener(ids, actuatorChanged);
  }

  /** Dosing sequences (aims/): the prototypes whose sequenced actuators are all kept. */
  const sequenceLoaded = new Set<number>();
  const prototypeOf = (actuatorId: number) => {
    const entry = actuators.peek(actuatorId);
    return entry ? sensors.peek(entry.actuator.sensor_id)?.settings.prototype_id : undefined;
  };
  /** The kept sequenced actuators of the prototype, by actuator_id. */
  const sequenceOf = (prototypeId: number) =>
    [...actuators.values.values()]
      .filter(({ actuator }) => actuator.dose_order !== null && sensors.peek(actuator.sensor_id)?.settings.prototype_id === prototypeId)
      .map(({ actuator }) => actuator.actuator_id);
  function withSequenceSiblings(actuatorIds: readonly number[]): readonly number[] {
    let all: Set<number> | undefined;
    for (const id of actuatorIds) {
      if (actuators.peek(id)?.actuator.dose_order === null || actuators.peek(id) === undefined) continue;
      const prototypeId = prototypeOf(id);
      if (prototypeId === undefined) continue;
      all ??= new Set(actuatorIds);
      for (const sibling of sequenceOf(prototypeId)) all.add(sibling);
    }
    return all ? [...all] : actuatorIds;
  }

  /** The kept actuators that read this sensor (as their own or as an interlock). */
  const readersOf = (sensorId: number) =>
    [...actuators.values.values()]
      .filter(({ actuator }) => actuator.sensor_id === sensorId || actuator.interlocks.some((i) => i.sensor_id === sensorId))
      .map(({ actuator }) => actuator.actuator_id);

  const actuatorsOfPrototype = (prototypeId: number) =>
    [...actuators.values.values()]
      .filter(({ actuator }) => sensors.peek(actuator.sensor_id)?.settings.prototype_id === prototypeId)
      .map(({ actuator }) => actuator.actuator_id);

  /** Forgets what is kept of the sensor and, when a kept actuator reads it, reads it again at once. */
  function dropSensor(sensorId: number): void {
    sensors.drop(sensorId);
    const readers = readersOf(sensorId);
    if (readers.length === 0) return;
    const read = sensors.get(sensorId);
    if (read instanceof Promise)
      read.catch((error: unknown) => log.warn({ err: error, sensorId }, 'reading a sensor for the dosing decision failed'));
    tell(readers);
  }

  function readingsStored(rows: readonly StoredMeasurement[]): void {
    const touched = new Set<number>();
    for (const row of rows) {
      if (row.measurement_id < firstHeardId) {
        // Which kept readings count as received since the start may change, for any sensor.
        firstHeardId = row.measurement_id;
        moved();
      }
      const firstReal = realSinceGenerated.get(row.sensor_id);
      if (firstReal !== undefined && row.measurement_id < firstReal) {
        realSinceGenerated.set(row.sensor_id, row.measurement_id);
        moved();
      }
      if (sensors.isReading(row.sensor_id)) {
        sensors.drop(row.sensor_id);
        continue;
      }
      const entry = sensors.peek(row.sensor_id);
      if (!entry) continue;
      if (entry.newest && !isNewer(row, entry.newest)) {
        // An older reading than the newest changes nothing, unless it falls inside the run of equal values.
        if (entry.settings.stuck_after !== null && entry.run && !(row.timestamp < entry.run.since)) sensors.drop(row.sensor_id);
        touched.add(row.sensor_id);
        continue;
      }
      entry.run =
        entry.newest && entry.run && row.value === entry.newest.value
          ? { count: Math.min(entry.run.count + 1, STUCK_MIN_READINGS), since: Math.min(entry.run.since, row.timestamp) }
          : { count: 1, since: row.timestamp };
      entry.newest = row;
      touched.add(row.sensor_id);
    }
    const readers = new Set<number>();
    for (const sensorId of touched) for (const id of readersOf(sensorId)) readers.add(id);
    tell([...readers]);
  }

  function sensorChanged(sensor: Sensor): void {
    const entry = sensors.peek(sensor.sensor_id);
    if (sensors.isReading(sensor.sensor_id) || (entry && entry.settings.stuck_after !== sensor.stuck_after)) {
      // The run is kept only while stuck detection is on: turning it on reads the run.
      dropSensor(sensor.sensor_id);
      return;
    }
    if (!entry) return;
    // A sensor moved to another prototype takes that one's pause (read when first needed).
    entry.settings = sensor;
    tell(readersOf(sensor.sensor_id));
  }

  function actuatorChanged(
    actuator: StoredActuator & { interlocks?: ActuatorWithInterlocks['interlocks'] },
    action: 'created' | 'updated' | 'activated' = 'updated',
  ): void {
    const id = actuator.actuator_id;
    const entry = actuators.peek(id);
    // Who belongs to a sequence may have changed: read the membership again when next needed.
    if (action !== 'activated' && (actuator.dose_order !== null || (entry && entry.actuator.dose_order !== null))) {
      const siblings = [...sequenceLoaded].flatMap(sequenceOf);
      sequenceLoaded.clear();
      moved();
      tell(siblings);
    }
    if (actuators.isReading(id) || (entry && !Array.isArray(actuator.interlocks))) {
      // A change without its interlocks (a cascade that took one of them): read the actuator again.
      actuators.drop(id);
    } else if (entry) {
      entry.actuator = { ...actuator, interlocks: actuator.interlocks ?? entry.actuator.interlocks };
    }
    tell([id], true);
  }

  function doseRecorded(dose: StoredActivation): void {
    if (actuators.isReading(dose.actuator_id)) actuators.drop(dose.actuator_id);
    actuators.peek(dose.actuator_id)?.doses.push(doseRecord(dose));
    tell([dose.actuator_id]);
  }

  const unsubscribe = [
    bus.subscribe('measurements', ({ rows }) => readingsStored(rows)),
    bus.subscribe('measurementDeleted', ({ measurement }) => {
      const entry = sensors.peek(measurement.sensor_id);
      // Only the newest, or one of the run of equal values while stuck detection is on, changes anything.
      const inRun = entry?.settings.stuck_after !== null && entry?.run && !(measurement.timestamp < entry.run.since);
      if (!entry || entry.newest?.measurement_id === measurement.measurement_id || inRun || sensors.isReading(measurement.sensor_id))
        dropSensor(measurement.sensor_id);
    }),
    bus.subscribe('generated', ({ sensorIds }) => {
      for (const sensorId of sensorIds) {
        // Generated now, through this service or relayed: not a reading a pump may act on.
        realSinceGenerated.set(sensorId, Number.POSITIVE_INFINITY);
        dropSensor(sensorId);
      }
    }),
    bus.subscribe('sensor', (change) => {
      if (change.action !== 'deleted') return sensorChanged(change.sensor);
      const readers = readersOf(change.sensorId);
      sensors.drop(change.sensorId);
      realSinceGenerated.delete(change.sensorId);
      for (const id of readers) actuators.drop(id);
      tell(readers);
    }),
    bus.subscribe('actuator', (change) => {
      if (change.action === 'deleted') {
        if (actuators.peek(change.actuatorId)?.actuator.dose_order !== null) sequenceLoaded.clear();
        actuators.drop(change.actuatorId);
        tell([change.actuatorId], true);
      } else actuatorChanged(change.actuator, change.action);
    }),
    bus.subscribe('dose', ({ dose }) => doseRecorded(dose)),
    bus.subscribe('prototype', (change) => {
      if (change.action === 'deleted') return pauses.drop(change.prototypeId);
      const id = change.prototype.prototype_id;
      if (pauses.isReading(id)) pauses.drop(id);
      const entry = pauses.peek(id);
      if (entry) entry.until = change.prototype.paused_until === null ? null : Date.parse(change.prototype.paused_until);
      tell(actuatorsOfPrototype(id));
    }),
  ];

  /** When the reading was received for `restarted`: since the start (the start itself will do), or before it (or synthetic). */
  const receivedAt = (sensorId: number, newest: StoredMeasurement) =>
    newest.measurement_id >= (realSinceGenerated.get(sensorId) ?? firstHeardId) ? processStartedAt : Number.NEGATIVE_INFINITY;

  function sensorInput(entry: SensorEntry): SensorInput {
    const { settings, newest, run } = entry;
    return {
      settings,
      newest: newest && { value: newest.value, timestamp: newest.timestamp, received_at: receivedAt(settings.sensor_id, newest) },
      run,
    };
  }

  /**
   * The input from what is kept, or null when a piece must be read first. With
   * `withoutMissingInterlocks`, an interlock sensor not kept is left out: it counts as having no
   * reading (fail closed).
   */
  /**
   * The other parts of the actuator's sequence as its decision reads them (aims/sequence.ts), or
   * null while they are not all kept. A part whose inputs are missing counts as about to dose:
   * when unsure, the pump waits.
   */
  function sequenceInput(actuator: ActuatorWithInterlocks, prototypeId: number, at: number): SequenceInput | null {
    if (!sequenceLoaded.has(prototypeId)) return null;
    const others: SequenceMember[] = [];
    const names = new Map<number, string | null>();
    for (const id of sequenceOf(prototypeId)) {
      if (id === actuator.actuator_id) continue;
      const entry = actuators.peek(id)!;
      const other = entry.actuator;
      const input = fromMemory(id, at, true, false);
      const decision = input ? decide(input) : null;
      const newest = entry.doses.length > 0 ? entry.doses[entry.doses.length - 1].activated_at : null;
      names.set(id, other.actuator_name);
      others.push({
        actuator_id: id,
        dose_order: other.dose_order as number,
        wouldDose: decision === null ? true : decision.activate,
        // An open claim (claims/) holds it: its run may be going on now.
        busyUntil: other.claim_until ?? null,
        lastDosedAt: newest,
        mixing: other.response_delay ?? other.activation_period,
        changesAt: input ? nextDecisionChange(input) : null,
      });
    }
    return { self: { actuator_id: actuator.actuator_id, dose_order: actuator.dose_order }, others, pauseS: sequencePauseS, names };
  }

  function fromMemory(actuatorId: number, at: number, withoutMissingInterlocks = false, withSequence = true): DecisionInput | null {
    const entry = actuators.peek(actuatorId);
    if (!entry) return null;
    const { actuator } = entry;
    const own = sensors.peek(actuator.sensor_id);
    if (!own) return null;
    const pause = pauses.peek(own.settings.prototype_id);
    if (!pause) return null;
    const interlockSensors: SensorInput[] = [];
    for (const interlock of actuator.interlocks) {
      const sensor = sensors.peek(interlock.sensor_id);
      if (sensor) interlockSensors.push(sensorInput(sensor));
      else if (!withoutMissingInterlocks) return null;
    }
    // Doses leave the front as they leave the day (ones without a usable time stay: they count).
    while (entry.doses.length > 0 && isInWindow(entry.doses[0].activated_at, at, DAY_SECONDS) === false) entry.doses.shift();
    let sequence: SequenceInput | undefined;
    if (withSequence && actuator.dose_order !== null) {
      sequence = sequenceInput(actuator, own.settings.prototype_id, at) ?? undefined;
      if (!sequence) return null;
    }
    return {
      ...(sequence ? { sequence } : {}),
      actuator: safetySettings(actuator),
      sensor: sensorInput(own),
      interlockSensors,
      doses: entry.doses,
      pausedUntil: pause.until,
      processStartedAt,
      now: at,
      staleAfterDefaultMs: staleAfterMs,
    };
  }

  /** Keeps every sequenced actuator of the prototype, with what their decisions read (aims/). */
  async function loadSequence(prototypeId: number): Promise<void> {
    const members = (await store.actuators.listByPrototype(prototypeId)).filter((a) => a.dose_order !== null);
    for (const member of members) {
      const entry = await actuators.get(member.actuator_id);
      if (!entry) continue;
      await Promise.all([sensors.get(entry.actuator.sensor_id), ...entry.actuator.interlocks.map((i) => sensors.get(i.sensor_id))]);
    }
    sequenceLoaded.add(prototypeId);
    moved();
  }

  /** Reads what is missing, then answers from memory; undefined when the actuator (or its sensor) does not exist. */
  async function readAndBuild(actuatorId: number): Promise<DecisionInput | undefined> {
    for (let attempt = 1; ; attempt++) {
      const entry = await actuators.get(actuatorId);
      if (!entry) return undefined;
      const own = await sensors.get(entry.actuator.sensor_id);
      if (!own) return undefined;
      // An interlock sensor that no longer exists stays missing: it counts as having no reading.
      await Promise.all([pauses.get(own.settings.prototype_id), ...entry.actuator.interlocks.map((i) => sensors.get(i.sensor_id))]);
      if (entry.actuator.dose_order !== null) await loadSequence(own.settings.prototype_id);
      const input = fromMemory(actuatorId, now());
      if (input) return input;
      // Changes kept dropping what was read: answer with what is kept, missing interlocks blocking.
      if (attempt >= READ_ATTEMPTS) return fromMemory(actuatorId, now(), true) ?? undefined;
    }
  }

  return {
    /**
     * What the decision reads for this actuator now: at once from memory when everything is
     * kept (every poll after the first), else after reading the missing pieces. Undefined for an
     * actuator that does not exist.
     */
    input(actuatorId: number): MaybePromise<DecisionInput | undefined> {
      const input = fromMemory(actuatorId, now());
      if (input !== null) return input;
      return readAndBuild(actuatorId);
    },

    /** The actuator as kept (settings, interlocks, lockout), if it is. */
    actuator(actuatorId: number): ActuatorWithInterlocks | undefined {
      return actuators.peek(actuatorId)?.actuator;
    },

    /**
     * Moves whenever what is kept changes without the listeners being told which actuators it
     * concerns: an input built before it moved may be out of date.
     */
    epoch: () => epoch,

    /** Listens to changes of the inputs; the function returned stops listening. */
    onChange(listener: InputsListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Forgets everything kept (changes may have been missed: the relay lost its connection). */
    forgetAll(): void {
      const ids = [...actuators.values.keys()];
      actuators.clear();
      sensors.clear();
      pauses.clear();
      log.info({ actuators: ids.length }, 'dosing decision inputs read again');
      tell(ids);
    },

    stop(): void {
      for (const stop of unsubscribe) stop();
      listeners.clear();
      // No longer following the bus: nothing decided on what is kept may be taken as current.
      moved();
    },
  };
}

/**
 * The actuator's settings as the decision reads them, written out field by field: a spread of the
 * row with fields added takes V8's slow path, microseconds and garbage per decision.
 */
const safetySettings = (actuator: ActuatorWithInterlocks): ActuatorSafetySettings => ({
  enabled: actuator.enabled,
  condition_value: actuator.condition_value,
  activation_condition: actuator.activation_condition,
  activation_period: actuator.activation_period,
  activation_duration: actuator.activation_duration,
  last_activated: actuator.last_activated,
  max_doses_per_hour: actuator.max_doses_per_hour,
  max_seconds_per_day: actuator.max_seconds_per_day,
  max_ml_per_day: actuator.max_ml_per_day,
  flow_ml_per_s: actuator.flow_ml_per_s,
  stock_ml: actuator.stock_ml,
  lockout:
    actuator.lockout_since === null
      ? null
      : {
          since: actuator.lockout_since,
          reason: actuator.lockout_reason ?? '',
          kind: actuator.lockout_kind === 'unusual' ? 'unusual' : null,
        },
  interlocks: actuator.interlocks,
  aim: {
    setpoint: actuator.setpoint,
    band: actuator.band,
    dose_mode: actuator.dose_mode,
    dose_fraction: actuator.dose_fraction,
    min_duration: actuator.min_duration,
    max_duration: actuator.max_duration,
    initial_gain: actuator.initial_gain,
    learned_gain: actuator.learned_gain,
    schedule: actuator.schedule,
  },
});

const doseRecord = (dose: Pick<StoredActivation, 'activated_at' | 'duration' | 'volume_ml'>): DoseRecord => ({
  activated_at: dose.activated_at,
  duration: dose.duration,
  volume_ml: dose.volume_ml,
});

export type DecisionInputs = ReturnType<typeof decisionInputs>;
