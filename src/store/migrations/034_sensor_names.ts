import { type Kysely, type Migration, sql } from 'kysely';

/** A sensor's optional name (docs/api.md §5), like an actuator's: null until a grower gives one. */
export function sensorNamesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sensors').addColumn('sensor_name', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`alter table sensors drop column sensor_name`.execute(db);
    },
  };
}
