import { type ActivationListQuery, ActuatorBase, type ActuatorPatch } from '../domain/actuator.js';
import type { Repositories, StoredActivation } from '../store/index.js';
import { patchAll } from '../core/bulk-patch.js';
import { settingsChanges } from '../core/settings-changes.js';
import type { ActuatorWithInterlocks } from '../core/actuator-view.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { Conflict, InvalidInput, NotFound } from '../core/errors.js';
import { windowOf } from '../core/window.js';
import { interlockIssues, normalInterlocks, safetyDefaults, volumeIssues } from './safety-settings.js';
import { type Decision, doseVolume, stockAfterDose } from '../safety/index.js';
import type { MaybePromise } from '../store/index.js';
import type { KeptDecision, KeptDecisions } from './kept-decisions.js';
import type { ControllerContact } from './controller-contact.js';
import { isPromise } from '../core/maybe-promise.js';
import { aimDefaults, aimIssues, type AimSettings } from '../aims/settings.js';
import { answeredSizes } from '../aims/answered-sizes.js';

/** The decisions (made on the inputs kept in memory, kept while they hold) and where controller contacts are noted. */
export interface ActuatorSafetyDeps {
  decisions: Pick<KeptDecisions, 'of'>;
  contact: Pick<ControllerContact, 'heardFrom' | 'withLastPolled'>;
}

/**
 * Every setting a patch may change. last_activated is the controller's own (`markActivated`);
 * stock_ml is the bottle's, set only by a refill and lowered by doses: a whole object sent back
 * by a form opened before some doses would otherwise fill the bottle again on paper.
 */
const PATCHABLE = (Object.keys(ActuatorBase.properties) as (keyof ActuatorBase)[]).filter((field) => field !== 'stock_ml');

const actuatorNotFound = (id: number) => `Actuator ${id} not found`;
const sensorNotFound = (id: number) => `Sensor ${id} not found`;

/** Throws 422 when the interlocks or the volumes break a rule the schema cannot express. */
function checkSettings(
  settings: Parameters<typeof volumeIssues>[0] &
    AimSettings &
    Pick<ActuatorBase, 'activation_condition' | 'activation_duration'> & { interlocks: ActuatorWithInterlocks['interlocks'] },
  loc: (string | number)[],
): void {
  const issues = [
    ...interlockIssues(settings.interlocks, [...loc, 'interlocks']),
    ...volumeIssues(settings, loc),
    ...aimIssues(settings, loc),
  ];
  if (issues.length > 0) throw new InvalidInput(...issues);
}

/** Throws 404 for the first interlock sensor that does not exist. */
async function checkInterlockSensors(tx: Repositories, interlocks: ActuatorWithInterlocks['interlocks']): Promise<void> {
  const named = interlocks.map((i) => i.sensor_id);
  const existing = await tx.sensors.existing(named);
  const missing = named.find((id) => !existing.has(id));
  if (missing !== undefined) throw new NotFound(sensorNotFound(missing));
}

/** The actuator with its interlocks, read inside the transaction. */
async function withInterlocks(tx: Repositories, actuatorId: number): Promise<ActuatorWithInterlocks | undefined> {
  const actuator = await tx.actuators.get(actuatorId);
  return actuator && { ...actuator, interlocks: await tx.interlocks.of(actuatorId) };
}

export function actuatorService({ store, bus, now }: ServiceDeps, { decisions, contact }: ActuatorSafetyDeps) {
  /** The dose sizes told to controllers (aims/): a run report records what it ran. */
  const sizes = answeredSizes();
  const noted = (actuatorId: number, answer: KeptDecision | undefined) => {
    if (answer) contact.heardFrom(actuatorId);
    if (answer?.decision.activate) sizes.note(actuatorId, answer.decision.duration, now());
    return answer;
  };
  /** A proportional dose reported without a read before it: the size the decision gives now. */
  const sizeNow = async (actuatorId: number, fallback: number): Promise<number> => {
    const decision = (await decisions.of(actuatorId))?.decision;
    return decision && decision.aim && decision.conditionMet ? decision.duration : fallback;
  };
  /** The one decision (safety/decide.ts) now, with its JSON text, noted as the controller's poll. */
  function polledState(actuatorId: number): MaybePromise<KeptDecision | undefined> {
    const answer = decisions.of(actuatorId);
    return isPromise(answer) ? answer.then((a) => noted(actuatorId, a)) : noted(actuatorId, answer);
  }
  const view = <A extends ActuatorWithInterlocks>(a: A): A => contact.withLastPolled(a);

  return {
    /** Registers a pump on an existing sensor; last_activated starts at the creation time. */
    async create(actuator: ActuatorBase): Promise<ActuatorWithInterlocks> {
      const interlocks = normalInterlocks(actuator.interlocks ?? []);
      const settings = { ...safetyDefaults(actuator), ...aimDefaults(actuator) };
      checkSettings({ ...actuator, ...settings, interlocks }, ['body']);
      const created = await store.transaction(async (tx) => {
        if (!(await tx.sensors.get(actuator.sensor_id))) throw new NotFound(sensorNotFound(actuator.sensor_id));
        await checkInterlockSensors(tx, interlocks);
        const row = await tx.actuators.create({
          actuator_type: actuator.actuator_type,
          sensor_id: actuator.sensor_id,
          condition_value: actuator.condition_value,
          activation_condition: actuator.activation_condition,
          activation_period: actuator.activation_period,
          activation_duration: actuator.activation_duration,
          ...settings,
          actuator_name: actuator.actuator_name ?? null,
          enabled: actuator.enabled ?? true,
          controller: actuator.controller ?? 'http',
          last_activated: now(),
        });
        await tx.interlocks.replace(row.actuator_id, interlocks);
        return { ...row, interlocks };
      });
      bus.publish('actuator', { action: 'created', actuator: created });
      return view(created);
    },

    /**
     * Partial bulk update of the settings, all or nothing; the rules are checked on the merged
     * result. Interlocks named in a patch replace the actuator's interlocks.
     */
    async patch(patches: readonly ActuatorPatch[], author: string | null = null): Promise<ActuatorWithInterlocks[]> {
      const updated = await store.transaction((tx) =>
        patchAll<ActuatorWithInterlocks, ActuatorPatch>(patches, {
          idOf: (patch) => patch.actuator_id,
          fields: PATCHABLE,
          rows: {
            lock: tx.actuators.lock,
            get: (id) => withInterlocks(tx, id),
            async update(merged) {
              const interlocks = normalInterlocks(merged.interlocks);
              await checkInterlockSensors(tx, interlocks);
              const row = await tx.actuators.update(merged);
              await tx.interlocks.replace(row.actuator_id, interlocks);
              return { ...row, interlocks };
            },
          },
          notFound: actuatorNotFound,
          check: (merged, index) => checkSettings({ ...merged, interlocks: normalInterlocks(merged.interlocks) }, ['body', index]),
          parent: {
            field: 'sensor_id',
            exists: async (id) => (await tx.sensors.get(id)) !== undefined,
            notFound: sensorNotFound,
          },
          audit: async (before, after) => {
            const changes = settingsChanges(before, after, PATCHABLE);
            const sensor = changes.length === 0 ? undefined : await tx.sensors.get(after.sensor_id);
            if (!sensor) return;
            await tx.settingsChanges.record({
              at: now(),
              prototype_id: sensor.prototype_id,
              actuator_id: after.actuator_id,
              sensor_id: null,
              author,
              changes: JSON.stringify(changes),
            });
          },
        }),
      );
      for (const actuator of updated) bus.publish('actuator', { action: 'updated', actuator, changedBy: author });
      return updated.map(view);
    },

    /**
     * What a controller polls (docs/api.md §3.3, §14): the decision now and its JSON text, with the
     * read noted as the controller's contact (`last_polled`). At once, without a promise, when the
     * inputs are kept in memory: the fast path in front of the routes answers with it. Undefined
     * for an unknown actuator.
     */
    polledState,

    /** `GET /actuators/{id}/state`: the decision now and its JSON text, noted as a poll; 404 for an unknown actuator. */
    async state(actuatorId: number): Promise<KeptDecision> {
      const answer = await polledState(actuatorId);
      if (!answer) throw new NotFound(actuatorNotFound(actuatorId));
      return answer;
    },

    /** The decision now, not noted as a poll (what the service itself publishes). */
    async decision(actuatorId: number): Promise<Decision | undefined> {
      return (await decisions.of(actuatorId))?.decision;
    },

    /**
     * The controller's report that the pump ran (HTTP or MQTT): last_activated becomes now, and
     * the dose is recorded in the same transaction with the actuator's activation_duration, its
     * sensor's newest reading and its volume at the flow of the moment (docs/api.md §14, §15); the
     * volume is taken from the bottle's stock in that transaction too, with the actuator's row
     * locked, so that run reports through several instances at once each take theirs. The report
     * of a claimed run whose claim is still open completes that claim instead: its dose was
     * recorded (and its volume taken) when it was claimed, and is now `reported`.
     */
    async markActivated(actuatorId: number): Promise<ActuatorWithInterlocks> {
      const known = await store.actuators.get(actuatorId);
      const proportional = known?.dose_mode === 'proportional' && known.setpoint !== null;
      const told = proportional ? await sizeNow(actuatorId, known.activation_duration) : undefined;
      const done = await store.transaction(async (tx) => {
        const current = await tx.actuators.getForUpdate(actuatorId);
        if (!current) return undefined;
        // Taken under the row lock, as a refill's time is: the journal lists a pump's doses and
        // refills in the order they changed its bottle, not in the order they arrived.
        const at = now();
        // An open claim (claims/rules.ts isClaimOpen) waiting for this report.
        if (current.claim_activation_id !== null && current.claim_until !== null && at < current.claim_until) {
          // The report of a claimed run completes its claim: the dose is already counted (claims/).
          await tx.activations.markReported(current.claim_activation_id);
          const completed = await tx.actuators.completeClaim(actuatorId, at);
          if (!completed) return undefined;
          return { actuator: { ...completed, interlocks: await tx.interlocks.of(actuatorId) }, dose: undefined };
        }
        // What the controller was told to run (aims/answered-sizes.ts); a fixed dose is activation_duration.
        const seconds = told === undefined ? current.activation_duration : sizes.take(actuatorId, at, () => told);
        const volume = doseVolume(seconds, current.flow_ml_per_s);
        const marked = await tx.actuators.markActivated(actuatorId, at, stockAfterDose(current.stock_ml, volume));
        if (!marked) return undefined;
        const newest = await tx.measurements.last(marked.sensor_id);
        const dose = await tx.activations.record({
          actuator_id: actuatorId,
          activated_at: at,
          duration: seconds,
          value_before: newest?.value ?? null,
          volume_ml: volume,
        });
        return { actuator: { ...marked, interlocks: await tx.interlocks.of(actuatorId) }, dose };
      });
      if (!done) throw new NotFound(actuatorNotFound(actuatorId));
      // A run report is the controller's contact too.
      contact.heardFrom(actuatorId);
      bus.publish('actuator', { action: 'activated', actuator: done.actuator });
      if (done.dose) bus.publish('dose', { dose: done.dose });
      return view(done.actuator);
    },

    /** The actuator's recorded doses, newest first (docs/api.md §14). */
    async activations(actuatorId: number, query: ActivationListQuery): Promise<StoredActivation[]> {
      const window = windowOf({ start_time: query.start_time, end_time: query.end_time }, now());
      if (!(await store.actuators.get(actuatorId))) throw new NotFound(actuatorNotFound(actuatorId));
      return store.activations.list(actuatorId, window, query.limit ?? 100, query.before);
    },

    /**
     * Ends a lockout (docs/api.md §14): clears it and the count of unanswered doses, and records the
     * unlock for the journal. `unlockedBy` is who asked (null in open mode); it travels with the
     * change, for the alerts to record.
     */
    async unlock(actuatorId: number, unlockedBy: string | null): Promise<ActuatorWithInterlocks> {
      const actuator = await store.transaction(async (tx) => {
        const unlocked = await tx.actuators.unlock(actuatorId, now());
        if (unlocked === undefined) throw new NotFound(actuatorNotFound(actuatorId));
        if (unlocked === 'not-locked') throw new Conflict(`Actuator ${actuatorId} is not locked out`);
        await tx.safetyEvents.record({ kind: 'unlock', at: now(), actuator_id: actuatorId, prototype_id: null, author: unlockedBy });
        return { ...unlocked, interlocks: await tx.interlocks.of(actuatorId) };
      });
      bus.publish('actuator', { action: 'updated', actuator, unlockedBy });
      return view(actuator);
    },

    async remove(actuatorId: number): Promise<void> {
      if (!(await store.remove.actuator(actuatorId))) throw new NotFound(actuatorNotFound(actuatorId));
      bus.publish('actuator', { action: 'deleted', actuatorId });
    },

    /** The prototype's actuators (those whose sensor belongs to it), by actuator_id. */
    async listByPrototype(prototypeId: number): Promise<ActuatorWithInterlocks[]> {
      if (!(await store.prototypes.exists(prototypeId))) throw new NotFound(`Prototype ${prototypeId} not found`);
      const actuators = await store.actuators.listByPrototype(prototypeId);
      const interlocks = await store.interlocks.ofActuators(actuators.map((a) => a.actuator_id));
      return actuators.map((a) => view({ ...a, interlocks: interlocks.get(a.actuator_id) ?? [] }));
    },
  };
}

export type ActuatorService = ReturnType<typeof actuatorService>;
