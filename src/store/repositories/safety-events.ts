import type { Kysely } from 'kysely';
import type { RecordPage } from '../../domain/journal-page.js';
import type { Database, NewSafetyEvent, SafetyEventKind, StoredSafetyEvent } from '../database.js';
import type { Dialect } from '../dialect.js';
import { paged } from './record-page.js';

/** The history of lockouts, unlocks, pauses and resumes (migration 036), for the journal. */
export function safetyEventRepository(db: Kysely<Database>, dialect: Dialect) {
  const time = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : dialect.time(ms));
  return {
    /** Inside the transaction of the lockout, unlock, pause or resume it records. */
    async record(event: NewSafetyEvent): Promise<void> {
      await db
        .insertInto('safety_events')
        .values({
          kind: event.kind,
          at: dialect.time(event.at),
          actuator_id: event.actuator_id,
          prototype_id: event.prototype_id,
          until: time(event.until),
          reason: event.reason ?? null,
          author: event.author ?? null,
        })
        .execute();
    },

    /**
     * A page of the prototype's events of these kinds: its pauses and resumes, and the lockouts
     * and unlocks of the actuators on its sensors.
     */
    async ofPrototype(prototypeId: number, kinds: readonly SafetyEventKind[], page: RecordPage): Promise<StoredSafetyEvent[]> {
      if (kinds.length === 0) return [];
      const query = db
        .selectFrom('safety_events')
        .leftJoin('actuators', 'actuators.actuator_id', 'safety_events.actuator_id')
        .leftJoin('sensors', 'sensors.sensor_id', 'actuators.sensor_id')
        .selectAll('safety_events')
        .where('safety_events.kind', 'in', [...kinds])
        .where((eb) => eb.or([eb('safety_events.prototype_id', '=', prototypeId), eb('sensors.prototype_id', '=', prototypeId)]));
      return paged(query, { at: 'safety_events.at', id: 'safety_events.event_id' }, page, dialect).execute();
    },
  };
}

export type SafetyEventRepository = ReturnType<typeof safetyEventRepository>;
