import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes } from '../dialect.js';

const ACTUATOR_COLUMNS = ['flow_ml_per_s', 'max_ml_per_day', 'stock_ml', 'stock_low_ml'] as const;

/**
 * A grower's volumes and bottles (docs/api.md §15): each actuator's pump flow, daily volume limit,
 * bottle stock and low-stock mark (null: unknown, no limit, not tracked, no warning — what existing
 * pumps read); each dose's volume, worked out from the flow when the dose is recorded so that a
 * later flow change leaves the history as it was (existing doses read null: no flow then); and
 * the refills, which go with their actuator.
 */
export function volumesStockMigration({ time, float, identity }: SchemaTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const name of ACTUATOR_COLUMNS) await db.schema.alterTable('actuators').addColumn(name, float).execute();
      await db.schema.alterTable('activations').addColumn('volume_ml', float).execute();
      await db.schema
        .createTable('refills')
        .addColumn('refill_id', 'integer', identity)
        .addColumn('actuator_id', 'integer', (c) => c.notNull().references('actuators.actuator_id').onDelete('cascade'))
        .addColumn('refilled_at', time, (c) => c.notNull())
        .addColumn('stock_ml', float, (c) => c.notNull())
        .addColumn('author', 'text')
        .execute();
      await db.schema.createIndex('refills_by_actuator_time').on('refills').columns(['actuator_id', 'refilled_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists refills`.execute(db);
      await sql`alter table activations drop column volume_ml`.execute(db);
      for (const name of ACTUATOR_COLUMNS) await sql`alter table actuators drop column ${sql.ref(name)}`.execute(db);
    },
  };
}
