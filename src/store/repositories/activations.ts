import type { Kysely, Selectable } from 'kysely';
import type { RecordPage } from '../../domain/journal-page.js';
import type { TimeWindow } from '../../domain/time-window.js';
import type { ActivationTable, Database, StoredActivation } from '../database.js';
import type { Dialect } from '../dialect.js';
import { paged } from './record-page.js';

const toActivation = (row: Selectable<ActivationTable>): StoredActivation => ({
  ...row,
  answered: row.answered === null ? null : Boolean(row.answered),
  reversed: row.reversed === null ? null : Boolean(row.reversed),
  // A row from before migration 080 (a copy's source) has neither: it was a report.
  reported: row.reported === undefined ? true : Boolean(row.reported),
  manual: Boolean(row.manual),
});

/** A dose to record: what was reported, what its sensor read then and the volume it took. */
export type NewActivation = Omit<
  StoredActivation,
  'activation_id' | 'answered' | 'response' | 'reversed' | 'moved' | 'reported' | 'manual'
> & {
  /** Default true: a run the controller reported. A claim is recorded unreported until its report completes it. */
  reported?: boolean;
  manual?: boolean;
};

/** What a dose adds to the totals of its bucket. */
export type DoseAmountRow = Pick<StoredActivation, 'activation_id' | 'activated_at' | 'duration' | 'volume_ml'>;

/** The doses of each actuator (docs/api.md §14): one row per run the controller reported. */
export function activationRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    async record(dose: NewActivation): Promise<StoredActivation> {
      const row = await db
        .insertInto('activations')
        .values({
          actuator_id: dose.actuator_id,
          activated_at: dialect.time(dose.activated_at),
          duration: dose.duration,
          value_before: dose.value_before,
          answered: null,
          reversed: null,
          volume_ml: dose.volume_ml,
          reported: dialect.bool(dose.reported ?? true),
          manual: dialect.bool(dose.manual ?? false),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toActivation(row);
    },

    /**
     * The actuator's doses in `window` ([start, end)), newest first (ties: the later recorded),
     * at most `limit`, only those recorded before `before` (an activation_id) when given.
     */
    async list(actuatorId: number, window: TimeWindow, limit: number, before?: number): Promise<StoredActivation[]> {
      let query = db.selectFrom('activations').selectAll().where('actuator_id', '=', actuatorId);
      if (window.start !== undefined) query = query.where('activated_at', '>=', dialect.at(window.start));
      if (window.end !== undefined) query = query.where('activated_at', window.endInclusive ? '<=' : '<', dialect.at(window.end));
      if (before !== undefined) query = query.where('activation_id', '<', before);
      const rows = await query.orderBy('activation_id', 'desc').limit(limit).execute();
      return rows.map(toActivation);
    },

    /**
     * One page of the actuator's doses in `window`, oldest first (by time, then id), after the
     * dose `after` when given: what the dose totals fold, a page at a time.
     */
    async amounts(actuatorId: number, window: TimeWindow, limit: number, after?: DoseAmountRow): Promise<DoseAmountRow[]> {
      let query = db
        .selectFrom('activations')
        .select(['activation_id', 'activated_at', 'duration', 'volume_ml'])
        .where('actuator_id', '=', actuatorId);
      if (window.start !== undefined) query = query.where('activated_at', '>=', dialect.at(window.start));
      if (window.end !== undefined) query = query.where('activated_at', window.endInclusive ? '<=' : '<', dialect.at(window.end));
      if (after !== undefined) {
        const at = dialect.at(after.activated_at);
        query = query.where((eb) =>
          eb.or([eb('activated_at', '>', at), eb.and([eb('activated_at', '=', at), eb('activation_id', '>', after.activation_id)])]),
        );
      }
      return query.orderBy('activated_at').orderBy('activation_id').limit(limit).execute();
    },

    /** A page of the doses of the actuators on the prototype's sensors (the journal), each with its actuator's sensor. */
    async ofPrototype(prototypeId: number, page: RecordPage): Promise<(StoredActivation & { sensor_id: number })[]> {
      const query = db
        .selectFrom('activations')
        .innerJoin('actuators', 'actuators.actuator_id', 'activations.actuator_id')
        .innerJoin('sensors', 'sensors.sensor_id', 'actuators.sensor_id')
        .selectAll('activations')
        .select('actuators.sensor_id')
        .where('sensors.prototype_id', '=', prototypeId);
      const rows = await paged(query, { at: 'activations.activated_at', id: 'activations.activation_id' }, page, dialect).execute();
      return rows.map((row) => ({ ...toActivation(row), sensor_id: row.sensor_id }));
    },

    /** The actuator's doses recorded at or after `from`, oldest first: what the rolling limits and the judging read. */
    async since(actuatorId: number, from: number): Promise<StoredActivation[]> {
      const rows = await db
        .selectFrom('activations')
        .selectAll()
        .where('actuator_id', '=', actuatorId)
        .where('activated_at', '>=', dialect.at(from))
        .orderBy('activation_id')
        .execute();
      return rows.map(toActivation);
    },

    /** The actuator's doses not judged yet, oldest first. */
    async unjudged(actuatorId: number): Promise<StoredActivation[]> {
      const rows = await db
        .selectFrom('activations')
        .selectAll()
        .where('actuator_id', '=', actuatorId)
        .where('answered', 'is', null)
        .orderBy('activation_id')
        .execute();
      return rows.map(toActivation);
    },

    /**
     * The actuators that have doses not judged yet, each with its sensor, by actuator_id; `always`
     * actuators left out (their doses are never judged).
     */
    async pendingActuators(): Promise<{ actuator_id: number; sensor_id: number }[]> {
      return db
        .selectFrom('actuators')
        .select(['actuators.actuator_id', 'actuators.sensor_id'])
        .where('actuators.activation_condition', '<>', 'always')
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('activations')
              .select('activations.activation_id')
              .whereRef('activations.actuator_id', '=', 'actuators.actuator_id')
              .where('activations.answered', 'is', null),
          ),
        )
        .orderBy('actuators.actuator_id')
        .execute();
    },

    /** Marks a claimed dose as reported (its run report came); answers it, undefined when there is none. */
    async markReported(activationId: number): Promise<StoredActivation | undefined> {
      const row = await db
        .updateTable('activations')
        .set({ reported: dialect.bool(true) })
        .where('activation_id', '=', activationId)
        .returningAll()
        .executeTakeFirst();
      return row && toActivation(row);
    },

    /** The newest answered doses with a known move, newest first: what the learned gain is made of. */
    async answeredMoves(actuatorId: number, limit: number): Promise<{ activated_at: number; duration: number; move: number }[]> {
      const rows = await db
        .selectFrom('activations')
        .select(['activated_at', 'duration', 'moved'])
        .where('actuator_id', '=', actuatorId)
        .where('answered', '=', dialect.bool(true))
        .where('moved', 'is not', null)
        .orderBy('activated_at', 'desc')
        .orderBy('activation_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ activated_at: r.activated_at, duration: r.duration, move: r.moved as number }));
    },

    /** Records the judgement of a dose: answered, and where measured how far it moved the reading and whether the wrong way. */
    async judge(
      activationId: number,
      answered: boolean,
      measured: { response: number | null; reversed: boolean } = { response: null, reversed: false },
    ): Promise<void> {
      await db
        .updateTable('activations')
        .set({
          answered: dialect.bool(answered),
          response: measured.response,
          reversed: dialect.bool(measured.reversed),
          // The move the pump's learned gain is made of (aims/gain-learning.ts).
          moved: Number.isFinite(measured.response) ? measured.response : null,
        })
        .where('activation_id', '=', activationId)
        .execute();
    },

    /** The actuator's newest judged doses, newest first, at most `limit`: what the expected effect and the runs read. */
    async recentJudged(actuatorId: number, limit: number): Promise<StoredActivation[]> {
      const rows = await db
        .selectFrom('activations')
        .selectAll()
        .where('actuator_id', '=', actuatorId)
        .where('answered', 'is not', null)
        .orderBy('activation_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toActivation);
    },
  };
}

export type ActivationRepository = ReturnType<typeof activationRepository>;
