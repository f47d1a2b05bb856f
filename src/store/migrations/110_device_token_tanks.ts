import { type Kysely, type Migration, sql } from 'kysely';

/**
 * A device token may be limited to some prototypes (tanks): `prototype_ids` holds them as a JSON
 * array of ids, null for every prototype (what every existing token keeps).
 */
export function deviceTokenTanksMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('device_tokens').addColumn('prototype_ids', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`alter table device_tokens drop column prototype_ids`.execute(db);
    },
  };
}
