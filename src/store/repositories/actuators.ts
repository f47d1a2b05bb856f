import type { Kysely, Selectable } from 'kysely';
import type { ActuatorFields, ActuatorTable, Database, StoredActuator } from '../database.js';
import type { Dialect } from '../dialect.js';
import type { Schedule } from '../../domain/actuator.js';

/** A stored schedule that cannot be read is none: the output stays off. */
export function scheduleOf(text: string | Schedule | null): Schedule | null {
  if (typeof text === 'object') return text;
  if (text === null) return null;
  try {
    return JSON.parse(text) as Schedule;
  } catch {
    return null;
  }
}

const toActuator = (row: Selectable<ActuatorTable>): StoredActuator => ({
  ...row,
  enabled: Boolean(row.enabled),
  schedule: scheduleOf(row.schedule),
});

export function actuatorRepository(db: Kysely<Database>, dialect: Dialect) {
  const columns = (a: ActuatorFields) => ({
    actuator_type: a.actuator_type,
    sensor_id: a.sensor_id,
    condition_value: a.condition_value,
    activation_condition: a.activation_condition,
    activation_period: a.activation_period,
    activation_duration: a.activation_duration,
    actuator_name: a.actuator_name,
    max_doses_per_hour: a.max_doses_per_hour,
    max_seconds_per_day: a.max_seconds_per_day,
    min_response: a.min_response,
    response_delay: a.response_delay,
    lockout_after: a.lockout_after,
    controller_timeout: a.controller_timeout,
    lockout_reversed_after: a.lockout_reversed_after,
    usual_days: a.usual_days,
    usual_window: a.usual_window,
    unusual_factor: a.unusual_factor,
    flow_ml_per_s: a.flow_ml_per_s,
    max_ml_per_day: a.max_ml_per_day,
    stock_ml: a.stock_ml,
    stock_low_ml: a.stock_low_ml,
    setpoint: a.setpoint,
    band: a.band,
    dose_mode: a.dose_mode,
    dose_fraction: a.dose_fraction,
    min_duration: a.min_duration,
    max_duration: a.max_duration,
    initial_gain: a.initial_gain,
    dose_order: a.dose_order,
    schedule: a.schedule === null ? null : JSON.stringify(a.schedule),
    enabled: dialect.bool(a.enabled),
    controller: a.controller,
    last_activated: dialect.time(a.last_activated),
  });

  return {
    /** Inside a transaction, locks these actuators' rows in id order (see `Dialect.lockRows`). */
    lock(actuatorIds: readonly number[]): Promise<void> {
      return dialect.lockRows(db, 'actuators', actuatorIds);
    },

    async get(actuatorId: number): Promise<StoredActuator | undefined> {
      const row = await db.selectFrom('actuators').selectAll().where('actuator_id', '=', actuatorId).executeTakeFirst();
      return row && toActuator(row);
    },

    /**
     * Inside a transaction, the actuator with its row locked against other writers until the
     * transaction ends (see `Dialect.forUpdate`): what a write computed from the row (the stock a
     * dose leaves) reads, so that concurrent writes take turns and none is lost.
     */
    async getForUpdate(actuatorId: number): Promise<StoredActuator | undefined> {
      const query = db.selectFrom('actuators').selectAll().where('actuator_id', '=', actuatorId);
      const row = await dialect.forUpdate(query).executeTakeFirst();
      return row && toActuator(row);
    },

    /** Every actuator, by actuator_id. */
    async all(): Promise<StoredActuator[]> {
      return (await db.selectFrom('actuators').selectAll().orderBy('actuator_id').execute()).map(toActuator);
    },

    /** The actuators whose sensor belongs to the prototype, by actuator_id. */
    async listByPrototype(prototypeId: number): Promise<StoredActuator[]> {
      const rows = await db
        .selectFrom('actuators')
        .innerJoin('sensors', 'sensors.sensor_id', 'actuators.sensor_id')
        .selectAll('actuators')
        .where('sensors.prototype_id', '=', prototypeId)
        .orderBy('actuators.actuator_id')
        .execute();
      return rows.map(toActuator);
    },

    async create(actuator: ActuatorFields): Promise<StoredActuator> {
      const row = await db.insertInto('actuators').values(columns(actuator)).returningAll().executeTakeFirstOrThrow();
      return toActuator(row);
    },

    /**
     * Writes the configuration fields. last_activated is left out: only `markActivated` moves it,
     * so a settings update can never set it back, not even to a value it read a moment before.
     */
    async update(actuator: StoredActuator): Promise<StoredActuator> {
      const { last_activated: _ignored, ...settings } = columns(actuator);
      const row = await db
        .updateTable('actuators')
        .set(settings)
        .where('actuator_id', '=', actuator.actuator_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toActuator(row);
    },

    /** Disables these actuators (a cascade took an interlock they relied on); answers them, by id. */
    async disable(actuatorIds: readonly number[]): Promise<StoredActuator[]> {
      if (actuatorIds.length === 0) return [];
      const rows = await db
        .updateTable('actuators')
        .set({ enabled: dialect.bool(false) })
        .where('actuator_id', 'in', [...actuatorIds])
        .returningAll()
        .execute();
      return rows.map(toActuator).sort((a, b) => a.actuator_id - b.actuator_id);
    },

    /**
     * Locks the actuator out (docs/api.md §14) unless it already is: a second lockout keeps the first
     * one's time and reason. Answers the actuator when this call locked it, else undefined.
     */
    async lockOut(actuatorId: number, since: number, reason: string, kind: 'unusual' | null = null): Promise<StoredActuator | undefined> {
      const row = await db
        .updateTable('actuators')
        .set({ lockout_since: dialect.time(since), lockout_reason: reason, lockout_kind: kind })
        .where('actuator_id', '=', actuatorId)
        .where('lockout_since', 'is', null)
        .returningAll()
        .executeTakeFirst();
      return row && toActuator(row);
    },

    /** Keeps the gain learned from the answered doses (aims/gain.ts). */
    async setLearnedGain(actuatorId: number, gain: number | null): Promise<StoredActuator | undefined> {
      const row = await db
        .updateTable('actuators')
        .set({ learned_gain: gain })
        .where('actuator_id', '=', actuatorId)
        .returningAll()
        .executeTakeFirst();
      return row && toActuator(row);
    },

    /** Records how many doses in a row went unanswered, as the judging counted them. */
    async setUnansweredStreak(actuatorId: number, streak: number): Promise<void> {
      await db.updateTable('actuators').set({ unanswered_streak: streak }).where('actuator_id', '=', actuatorId).execute();
    },

    /**
     * Clears the lockout and the count of unanswered doses; ending a hold on unusual consumption
     * also restarts the learning of the usual dosing at `at`. Answers the actuator, `not-locked`
     * when it was not locked out (nothing changed), undefined when it does not exist.
     */
    async unlock(actuatorId: number, at: number): Promise<StoredActuator | 'not-locked' | undefined> {
      const row = await db
        .updateTable('actuators')
        .set((eb) => ({
          lockout_since: null,
          lockout_reason: null,
          lockout_kind: null,
          unanswered_streak: 0,
          usual_since: eb.case().when('lockout_kind', '=', 'unusual').then(dialect.at(at)).else(eb.ref('usual_since')).end(),
        }))
        .where('actuator_id', '=', actuatorId)
        .where('lockout_since', 'is not', null)
        .returningAll()
        .executeTakeFirst();
      if (row) return toActuator(row);
      const exists = await db.selectFrom('actuators').select('actuator_id').where('actuator_id', '=', actuatorId).executeTakeFirst();
      return exists ? 'not-locked' : undefined;
    },

    /**
     * Writes when controllers last polled (a batch noted in memory): each actuator's `last_polled`
     * moves forward only, so a batch from a slower instance never sets it back.
     */
    async notePolled(polls: ReadonlyMap<number, number>): Promise<void> {
      for (const [actuatorId, at] of polls) {
        await db
          .updateTable('actuators')
          .set({ last_polled: dialect.time(at) })
          .where('actuator_id', '=', actuatorId)
          .where((eb) => eb.or([eb('last_polled', 'is', null), eb('last_polled', '<', dialect.at(at))]))
          .execute();
      }
    },

    /** A reported run: last_activated becomes `at`, and the bottle holds `stockMl` when given (what the dose left). */
    async markActivated(actuatorId: number, at: number, stockMl?: number | null): Promise<StoredActuator | undefined> {
      const row = await db
        .updateTable('actuators')
        .set(stockMl === undefined ? { last_activated: dialect.time(at) } : { last_activated: dialect.time(at), stock_ml: stockMl })
        .where('actuator_id', '=', actuatorId)
        .returningAll()
        .executeTakeFirst();
      return row && toActuator(row);
    },

    /**
     * Records a claim (docs/safety.md "A dose is a claim"): the run starts at `at` (last_activated),
     * the claim stays open until `until` for the dose `activationId`, the bottle holds `stockMl`;
     * a manual run's request is taken with it (`manualDone`). Undefined when the actuator is gone.
     */
    async claim(
      actuatorId: number,
      claim: { at: number; until: number; activationId: number; stockMl: number | null; manualDone: boolean },
    ): Promise<StoredActuator | undefined> {
      const row = await db
        .updateTable('actuators')
        .set({
          last_activated: dialect.time(claim.at),
          claim_until: dialect.time(claim.until),
          claim_activation_id: claim.activationId,
          stock_ml: claim.stockMl,
          ...(claim.manualDone ? { manual_run_seconds: null } : {}),
        })
        .where('actuator_id', '=', actuatorId)
        .returningAll()
        .executeTakeFirst();
      return row && toActuator(row);
    },

    /** A run report completed the open claim: it is closed, and the period counts from the report. */
    async completeClaim(actuatorId: number, at: number): Promise<StoredActuator | undefined> {
      const row = await db
        .updateTable('actuators')
        .set({ last_activated: dialect.time(at), claim_activation_id: null, claim_until: null })
        .where('actuator_id', '=', actuatorId)
        .returningAll()
        .executeTakeFirst();
      return row && toActuator(row);
    },

    /** Asks for a manual run of `seconds` (null withdraws it); answers the actuator, undefined when gone. */
    async requestRun(actuatorId: number, seconds: number | null): Promise<StoredActuator | undefined> {
      const row = await db
        .updateTable('actuators')
        .set({ manual_run_seconds: seconds })
        .where('actuator_id', '=', actuatorId)
        .returningAll()
        .executeTakeFirst();
      return row && toActuator(row);
    },

    /** Sets the bottle's content (a refill); answers the actuator, undefined when it does not exist. */
    async setStock(actuatorId: number, stockMl: number): Promise<StoredActuator | undefined> {
      const row = await db
        .updateTable('actuators')
        .set({ stock_ml: stockMl })
        .where('actuator_id', '=', actuatorId)
        .returningAll()
        .executeTakeFirst();
      return row && toActuator(row);
    },
  };
}
