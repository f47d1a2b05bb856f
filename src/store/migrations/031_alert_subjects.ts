import { type Kysely, type Migration, sql } from 'kysely';
import type { StoreKind } from '../dialect.js';

/** The kinds this migration allows (a later migration that adds kinds names its own list). */
const KINDS = [
  'low',
  'high',
  'stale',
  'invalid',
  'stuck',
  'lockout',
  'limit',
  'controller_offline',
  'backup',
  'stock_low',
  'calibration_due',
] as const;
const KIND_LIST = sql.raw(KINDS.map((k) => `'${k}'`).join(', '));

/**
 * Alerts about something other than a sensor (docs/api.md §11, §16): `sensor_id` may be null, an
 * alert may name an actuator instead (`actuator_id`, gone with its actuator), or nothing at all
 * (the service's own alerts: a failed backup). The kinds are checked by the schema. "At most one
 * active alert per subject and kind" holds for each kind of subject through its own partial index.
 * SQLite cannot drop a NOT NULL in place: the table is made anew and its rows copied, ids and
 * the id sequence kept.
 */
export function alertSubjectsMigration(kind: StoreKind): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (kind === 'postgres') {
        await sql`alter table alerts alter column sensor_id drop not null`.execute(db);
        await sql`alter table alerts add column actuator_id integer references actuators (actuator_id) on delete cascade`.execute(db);
        await sql`alter table alerts add constraint alerts_kind check (kind in (${KIND_LIST}))`.execute(db);
      } else {
        const { rows } = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'alerts'`.execute(db);
        await sql`create table alerts_subjects (
          alert_id integer primary key autoincrement,
          sensor_id integer references sensors (sensor_id),
          actuator_id integer references actuators (actuator_id) on delete cascade,
          kind text not null check (kind in (${KIND_LIST})),
          severity text not null,
          state text not null,
          raised_at integer not null,
          cleared_at integer,
          acknowledged_at integer,
          acknowledged_by text,
          value real,
          peak real,
          last_value real
        )`.execute(db);
        await sql`insert into alerts_subjects (alert_id, sensor_id, kind, severity, state, raised_at, cleared_at,
            acknowledged_at, acknowledged_by, value, peak, last_value)
          select alert_id, sensor_id, kind, severity, state, raised_at, cleared_at,
            acknowledged_at, acknowledged_by, value, peak, last_value from alerts order by alert_id`.execute(db);
        await sql`drop table alerts`.execute(db);
        await sql`alter table alerts_subjects rename to alerts`.execute(db);
        const seq = Number(rows[0]?.seq ?? 0);
        await sql`update sqlite_sequence set seq = max(seq, ${seq}) where name = 'alerts'`.execute(db);
        await sql`create unique index alerts_one_active on alerts (sensor_id, kind) where state = 'active'`.execute(db);
        await db.schema.createIndex('alerts_by_sensor').on('alerts').columns(['sensor_id', 'alert_id']).execute();
        await db.schema.createIndex('alerts_by_state').on('alerts').columns(['state', 'alert_id']).execute();
      }
      await sql`create unique index alerts_one_active_per_actuator on alerts (actuator_id, kind) where state = 'active' and actuator_id is not null`.execute(
        db,
      );
      await sql`create unique index alerts_one_active_of_service on alerts (kind)
        where state = 'active' and sensor_id is null and actuator_id is null`.execute(db);
    },
    async down() {},
  };
}
