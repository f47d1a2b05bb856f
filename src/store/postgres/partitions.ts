import { type Kysely, sql } from 'kysely';
import { bucketStart, DAY } from '../../domain/bucket-sizes.js';
import type { Database } from '../database.js';

/** Whatever number: the same in every process, so instances making partitions take turns. */
const PARTITION_LOCK = 0x5e_2509;
/** Days made ahead of today, so an instance down for a day or two still finds tomorrow's. */
export const DAYS_AHEAD = 3;

/** The partition of the UTC day starting at `day` (epoch ms): `measurements_YYYYMMDD`. */
export function partitionName(day: number): string {
  const iso = new Date(day).toISOString();
  return `measurements_${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}`;
}

/** The UTC day a partition's name says, or undefined for a table not named like one. */
export function dayOfPartition(name: string): number | undefined {
  const match = /^measurements_(\d{4})(\d{2})(\d{2})$/.exec(name);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : undefined;
}

/** The UTC days (their starts, ascending, once each) that some timestamps fall in. */
export function daysOf(timestamps: Iterable<number>): number[] {
  const days = new Set<number>();
  for (const ts of timestamps) days.add(bucketStart(ts, DAY));
  return [...days].sort((a, b) => a - b);
}

/** Today and the days ahead, by UTC. */
export function daysAhead(now: number, ahead = DAYS_AHEAD): number[] {
  const today = bucketStart(now, DAY);
  return Array.from({ length: ahead + 1 }, (_, i) => today + i * DAY);
}

const literal = (ms: number) => sql.lit(new Date(ms).toISOString());

export interface DayPartition {
  name: string;
  day: number;
  /** `attached`; `pending`: a detach began and did not finish; `detached`: detached, not yet dropped (a process died in between). */
  state: 'attached' | 'pending' | 'detached';
}

/** The day partitions of measurements, ascending, with the tables of days detached and not yet dropped. */
export async function dayPartitions(db: Kysely<Database>): Promise<DayPartition[]> {
  const { rows } = await sql<{ name: string; parent: string | null; pending: boolean | null }>`select c.relname as name,
      i.inhparent::regclass::text as parent, i.inhdetachpending as pending
    from pg_class c left join pg_inherits i on i.inhrelid = c.oid
    where c.relkind = 'r' and c.relnamespace = current_schema()::regnamespace and c.relname ~ '^measurements_[0-9]{8}$'`.execute(db);
  const out: DayPartition[] = [];
  for (const row of rows) {
    const day = dayOfPartition(row.name);
    if (day === undefined || (row.parent !== null && row.parent !== 'measurements')) continue;
    out.push({ name: row.name, day, state: row.parent === null ? 'detached' : row.pending ? 'pending' : 'attached' });
  }
  return out.sort((a, b) => a.day - b.day);
}

/** Inside the caller's transaction: the partitions of these days that do not exist yet; answers the days made. */
export async function createDayPartitions(trx: Kysely<Database>, days: readonly number[]): Promise<number[]> {
  const existing = new Set((await dayPartitions(trx)).map((p) => p.day));
  const made: number[] = [];
  for (const day of days) {
    if (existing.has(day)) continue;
    const name = sql.table(partitionName(day));
    await sql`create table ${name} (like measurements including defaults including constraints)`.execute(trx);
    await sql`alter table measurements attach partition ${name} for values from (${literal(day)}) to (${literal(day + DAY)})`.execute(trx);
    made.push(day);
  }
  return made;
}

/**
 * Makes the partitions of these days that do not exist yet, each as a table of its own attached
 * to measurements. Attaching takes a lock on measurements that lets reads and inserts go on
 * (CREATE TABLE … PARTITION OF would stop them for its moment); an empty table is attached
 * without a scan. Instances making partitions at once take turns (a transaction-level lock, which
 * PgBouncer's transaction mode keeps), and a day another one made meanwhile is left alone.
 * Answers the days it made.
 */
export async function makeDayPartitions(db: Kysely<Database>, days: readonly number[]): Promise<number[]> {
  if (days.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`.execute(trx);
    return createDayPartitions(trx, days);
  });
}

/** True for PostgreSQL's refusal of a row no partition takes. */
export function isMissingPartition(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e.code === '23514' && typeof e.message === 'string' && e.message.startsWith('no partition of relation');
}

/**
 * Runs `write`; should it meet a day without its partition, makes the partitions of `days()` and
 * runs it again (once: what is missing then is not a day). No row is lost and none is written
 * twice: the refused statement wrote nothing.
 */
export async function withDayPartitions<T>(db: Kysely<Database>, days: () => number[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isMissingPartition(error)) throw error;
    await makeDayPartitions(db, days());
    return write();
  }
}

export interface DroppedDay {
  name: string;
  day: number;
  /** The rows it held, as its daily buckets count them (no scan of the partition). */
  rows: number;
  ms: number;
}

/** The rows of a day by its daily buckets, which are exact and kept. */
async function rowsOfDay(db: Kysely<Database>, day: number): Promise<number> {
  const { rows } = await sql<{ n: string | null }>`select sum(row_count) as n from history_buckets
    where sensor_id = any(array(select sensor_id from sensors)) and size_ms = ${DAY} and start_ms = ${day}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Drops every day partition wholly before `cutoff` (a UTC midnight): each is detached
 * concurrently (reads and inserts on the other days go on; it waits for the queries that may be
 * reading it) and then dropped. No row is deleted one by one, so nothing is left for vacuum.
 * Answers the partitions dropped, and how long each took.
 */
export async function dropDaysBefore(db: Kysely<Database>, cutoff: number): Promise<DroppedDay[]> {
  const dropped: DroppedDay[] = [];
  for (const partition of await dayPartitions(db)) {
    if (partition.day + DAY > cutoff) break;
    const rows = await rowsOfDay(db, partition.day);
    const started = Date.now();
    const name = sql.table(partition.name);
    // Outside a transaction: DETACH … CONCURRENTLY runs two of its own.
    if (partition.state === 'pending') await sql`alter table measurements detach partition ${name} finalize`.execute(db);
    else if (partition.state === 'attached') await sql`alter table measurements detach partition ${name} concurrently`.execute(db);
    await sql`drop table if exists ${name}`.execute(db);
    dropped.push({ name: partition.name, day: partition.day, rows, ms: Date.now() - started });
  }
  return dropped;
}
