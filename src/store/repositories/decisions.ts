import { type Kysely, type Selectable, sql } from 'kysely';
import type { RecordPage } from '../../domain/journal-page.js';
import type { TimeWindow } from '../../domain/time-window.js';
import type { ActuatorDecisionTable, Database, NewDecision, StoredDecision } from '../database.js';
import type { Dialect } from '../dialect.js';
import { paged } from './record-page.js';

const toDecision = (row: Selectable<ActuatorDecisionTable>): StoredDecision => ({ ...row, activate: Boolean(row.activate) });

/** A decision change with the instant the next change of the same actuator ended it (null: it still holds). */
export type DecisionSpan = StoredDecision & { until: number | null; sensor_id: number };

/** The history of each actuator's decision (migration 095): one row per change of its reason. */
export function decisionRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** The newest recorded reason of the actuator, or undefined before its first. */
    async latestReason(actuatorId: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('actuator_decisions')
        .select('reason')
        .where('actuator_id', '=', actuatorId)
        .orderBy('decision_id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.reason;
    },

    async record(change: NewDecision): Promise<void> {
      await db
        .insertInto('actuator_decisions')
        .values({ ...change, at: dialect.time(change.at), activate: dialect.bool(change.activate) })
        .execute();
    },

    /** The actuator's changes in `window`, newest first, at most `limit`, only those before the instant `before` when given. */
    async list(actuatorId: number, window: TimeWindow, limit: number, before?: number): Promise<StoredDecision[]> {
      let query = db.selectFrom('actuator_decisions').selectAll().where('actuator_id', '=', actuatorId);
      if (window.start !== undefined) query = query.where('at', '>=', dialect.at(window.start));
      if (window.end !== undefined) query = query.where('at', window.endInclusive ? '<=' : '<', dialect.at(window.end));
      if (before !== undefined) query = query.where('at', '<', dialect.at(before));
      const rows = await query.orderBy('at', 'desc').orderBy('decision_id', 'desc').limit(limit).execute();
      return rows.map(toDecision);
    },

    /**
     * A page of the changes to reasons other than `except` of the actuators on the prototype's
     * sensors, each with the instant the next change of its actuator ended it: the holds of the journal.
     */
    async spansOfPrototype(prototypeId: number, except: readonly string[], page: RecordPage): Promise<DecisionSpan[]> {
      const query = db
        .selectFrom('actuator_decisions')
        .innerJoin('actuators', 'actuators.actuator_id', 'actuator_decisions.actuator_id')
        .innerJoin('sensors', 'sensors.sensor_id', 'actuators.sensor_id')
        .selectAll('actuator_decisions')
        .select('actuators.sensor_id')
        .select(
          sql<
            number | null
          >`(select min(n.at) from actuator_decisions n where n.actuator_id = actuator_decisions.actuator_id and n.decision_id > actuator_decisions.decision_id)`.as(
            'until',
          ),
        )
        .where('sensors.prototype_id', '=', prototypeId)
        .where('actuator_decisions.reason', 'not in', [...except])
        // A hold another change replaced at the same instant held nothing: no span of no length.
        .where(
          sql<boolean>`not exists (select 1 from actuator_decisions n where n.actuator_id = actuator_decisions.actuator_id
            and n.decision_id > actuator_decisions.decision_id and n.at <= actuator_decisions.at)`,
        );
      const rows = await paged(query, { at: 'actuator_decisions.at', id: 'actuator_decisions.decision_id' }, page, dialect).execute();
      return rows.map((row) => ({ ...toDecision(row), sensor_id: row.sensor_id, until: row.until === null ? null : toMs(row.until) }));
    },
  };
}

/** A time read through raw SQL: PostgreSQL's driver gives a Date or text, SQLite the stored ms. */
function toMs(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' && !/^-?\d+$/.test(value)) return Date.parse(value);
  return Number(value);
}

export type DecisionRepository = ReturnType<typeof decisionRepository>;
