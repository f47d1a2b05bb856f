import { type Kysely, type Migration, sql } from 'kysely';
import type { StoreKind } from '../dialect.js';
import type { MigrationLog } from './010_history_buckets.js';

/**
 * On SQLite, the rule that a measurement's value is finite moves from a pair of triggers
 * (003_finite_numbers) into a CHECK constraint of the measurements table: SQLite runs a trigger as
 * a program of its own for every row inserted, which cost ingest about a fifth of its insert time,
 * while a CHECK is one expression. SQLite cannot add a CHECK to a table in place, so the table is
 * made anew with it and the rows copied, once (ids kept). PostgreSQL has had a CHECK since 003.
 */
export function measurementsCheckMigration(kind: StoreKind, log: MigrationLog): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (kind === 'postgres') return;
      const { rows } = await sql<{ n: number }>`select count(*) as n from measurements`.execute(db);
      const count = Number(rows[0]?.n ?? 0);
      if (count > 0) log({ rows: count }, 'measurements: rebuilding the table with its finite-value check (once)');
      const started = Date.now();
      await sql`create table measurements_checked (
        measurement_id integer primary key,
        sensor_id integer not null references sensors (sensor_id),
        value real not null check (abs(value) <> 9e999),
        timestamp integer not null
      )`.execute(db);
      await sql`insert into measurements_checked (measurement_id, sensor_id, value, timestamp)
        select measurement_id, sensor_id, value, timestamp from measurements order by measurement_id`.execute(db);
      // The triggers go with the table they are on.
      await sql`drop table measurements`.execute(db);
      await sql`alter table measurements_checked rename to measurements`.execute(db);
      await sql`create index measurements_by_sensor_time on measurements (sensor_id, timestamp, measurement_id)`.execute(db);
      if (count > 0) log({ rows: count, ms: Date.now() - started }, 'measurements: table rebuilt');
    },
    async down() {},
  };
}
