import type { Kysely } from 'kysely';
import type { RecordPage } from '../../domain/journal-page.js';
import type { TimeWindow } from '../../domain/time-window.js';
import type { Database, StoredRefill } from '../database.js';
import type { Dialect } from '../dialect.js';
import { paged } from './record-page.js';

/** A refill to record. */
export type NewRefill = Omit<StoredRefill, 'refill_id'>;

/**
 * The refills of each actuator's bottle (docs/api.md §15): one row per `POST /actuators/{id}/refill`,
 * gone with the actuator. The reads answer newest first (ties: the later recorded), within a
 * window ([start, end), or up to an inclusive end), at most `limit` rows when given.
 */
export function refillRepository(db: Kysely<Database>, dialect: Dialect) {
  type Query = ReturnType<typeof selectRefills>;
  const selectRefills = () => db.selectFrom('refills').selectAll('refills');

  function within(query: Query, window: TimeWindow, limit: number | undefined) {
    let q = query;
    if (window.start !== undefined) q = q.where('refills.refilled_at', '>=', dialect.at(window.start));
    if (window.end !== undefined) q = q.where('refills.refilled_at', window.endInclusive ? '<=' : '<', dialect.at(window.end));
    q = q.orderBy('refills.refilled_at', 'desc').orderBy('refills.refill_id', 'desc');
    return limit === undefined ? q : q.limit(limit);
  }

  return {
    async record(refill: NewRefill): Promise<StoredRefill> {
      return db
        .insertInto('refills')
        .values({ ...refill, refilled_at: dialect.time(refill.refilled_at) })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** The refills of these actuators in `window`, newest first. */
    async between(actuatorIds: readonly number[], window: TimeWindow, limit?: number): Promise<StoredRefill[]> {
      if (actuatorIds.length === 0) return [];
      return within(selectRefills().where('refills.actuator_id', 'in', [...actuatorIds]), window, limit).execute();
    },

    /** A page of the refills of the prototype's actuators (those whose sensor belongs to it), for the journal. */
    async ofPrototype(prototypeId: number, page: RecordPage): Promise<(StoredRefill & { sensor_id: number })[]> {
      const query = selectRefills()
        .innerJoin('actuators', 'actuators.actuator_id', 'refills.actuator_id')
        .innerJoin('sensors', 'sensors.sensor_id', 'actuators.sensor_id')
        .select('actuators.sensor_id')
        .where('sensors.prototype_id', '=', prototypeId);
      return paged(query, { at: 'refills.refilled_at', id: 'refills.refill_id' }, page, dialect).execute();
    },
  };
}

export type RefillRepository = ReturnType<typeof refillRepository>;
