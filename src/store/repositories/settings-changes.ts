import type { Kysely } from 'kysely';
import type { RecordPage } from '../../domain/journal-page.js';
import type { Database, NewSettingsChange, StoredSettingsChange } from '../database.js';
import type { Dialect } from '../dialect.js';
import { paged } from './record-page.js';

/** The audit of actuators' and sensors' settings (migration 096), for the journal. */
export function settingsChangeRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** Inside the transaction of the change it records. */
    async record(change: NewSettingsChange): Promise<void> {
      await db
        .insertInto('settings_changes')
        .values({ ...change, at: dialect.time(change.at) })
        .execute();
    },

    /** A page of the prototype's settings changes (see `RecordPage`). */
    async ofPrototype(prototypeId: number, page: RecordPage): Promise<StoredSettingsChange[]> {
      const query = db.selectFrom('settings_changes').selectAll().where('prototype_id', '=', prototypeId);
      return paged(query, { at: 'settings_changes.at', id: 'settings_changes.change_id' }, page, dialect).execute();
    },
  };
}
