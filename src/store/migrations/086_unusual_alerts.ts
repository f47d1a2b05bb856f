import { type Kysely, type Migration, sql } from 'kysely';
import type { StoreKind } from '../dialect.js';

/** The kind this migration adds to those the schema allows. */
const NEW_KIND = 'unusual';

/**
 * The `unusual` alert (critical, an actuator's: its dosing is far above what it usually doses).
 * The schema checks alert kinds: the check is made anew with the kinds it allowed plus this one.
 * SQLite cannot change a check in place: the table is made anew from its own definition and its
 * rows copied, ids, indexes and the id sequence kept.
 */
export function unusualAlertsMigration(kind: StoreKind): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (kind === 'postgres') {
        const { rows } = await sql<{ def: string }>`select pg_get_constraintdef(oid) as def from pg_constraint
          where conname = 'alerts_kind'`.execute(db);
        const kinds = [...(rows[0]?.def ?? '').matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
        if (!kinds.includes(NEW_KIND)) kinds.push(NEW_KIND);
        const list = sql.raw(kinds.map((k) => `'${k}'`).join(', '));
        await sql`alter table alerts drop constraint alerts_kind`.execute(db);
        await sql`alter table alerts add constraint alerts_kind check (kind in (${list}))`.execute(db);
        return;
      }
      const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'alerts'`.execute(db);
      const definition = rows[0].sql;
      if (definition.includes(`'${NEW_KIND}'`)) return;
      const made = definition
        .replace(/^create table "?alerts"?/i, 'create table alerts_kinds')
        .replace(/(check \(kind in \()([^)]*)\)/i, (_all, head: string, list: string) => `${head}${list}, '${NEW_KIND}')`);
      if (made === definition || !made.includes(`'${NEW_KIND}'`)) throw new Error('the alerts table has no kind check to extend');
      const indexes = await sql<{ sql: string }>`select sql from sqlite_master
        where type = 'index' and tbl_name = 'alerts' and sql is not null`.execute(db);
      const sequence = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'alerts'`.execute(db);
      await sql.raw(made).execute(db);
      await sql`insert into alerts_kinds select * from alerts order by alert_id`.execute(db);
      await sql`drop table alerts`.execute(db);
      await sql`alter table alerts_kinds rename to alerts`.execute(db);
      const seq = Number(sequence.rows[0]?.seq ?? 0);
      await sql`update sqlite_sequence set seq = max(seq, ${seq}) where name = 'alerts'`.execute(db);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
    },
    async down() {},
  };
}
