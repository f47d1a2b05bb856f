import type { BucketRead, BucketRow } from '../domain/bucket-rows.js';
import { bucketStart, DAY } from '../domain/bucket-sizes.js';

/** Where the cache reads from: the store's bucket reads. */
export interface DayCacheSource {
  dayStamps(sensorId: number, from: number, to: number): Promise<[number, number][]>;
  bucketRows(read: BucketRead, sensorId: number, size: number, from: number, to: number): Promise<BucketRow[]>;
}

/** One UTC day of a sensor's buckets of one size, as read when its daily bucket had `stamp`. */
interface Day {
  stamp: number;
  rows: BucketRow[];
  /** The day's part of an answer as UTF-8 (its rows' JSON, comma-separated), made once and kept with them. */
  json?: Buffer;
}

/** A stretch of an answer: a whole day that may be kept, or rows at an edge that are not. */
export type Stretch = { day: Day } | { rows: BucketRow[] };

/** The most bucket rows kept: a year of hourly buckets is 8,760, so about eleven sensor-years. */
const DEFAULT_LIMIT_ROWS = 100_000;

/**
 * Long reads of the hourly buckets keep what they read, one UTC day at a time, and reuse a day
 * while its daily bucket's stamp is unchanged: any write to a bucket inside the day rewrites the
 * day's bucket in the same transaction with a new stamp (migration 021), whichever process
 * made it. A year at one-hour buckets then costs one read of 365 stamps and the rows of the days
 * that changed since, instead of 8,760 rows.
 *
 * Only sizes whose buckets are rewritten together with their day's may be kept here: the hourly
 * ones are; the 5-minute ones are not (retention deletes them alone).
 *
 * The stamps are read before the rows, so rows kept under a stamp are at least as new as it; a
 * day that changes in between is read again next time. Least recently used days go first.
 */
export function dayCache(source: DayCacheSource, limitRows = DEFAULT_LIMIT_ROWS) {
  const days = new Map<string, Day>();
  let keptRows = 0;

  function keep(key: string, day: Day): void {
    const old = days.get(key);
    if (old) {
      keptRows -= old.rows.length;
      days.delete(key);
    }
    days.set(key, day);
    keptRows += day.rows.length;
    for (const [oldest, dropped] of days) {
      if (keptRows <= limitRows) break;
      days.delete(oldest);
      keptRows -= dropped.rows.length;
    }
  }

  /** Rows of [from, to) split by UTC day, in time order. */
  function byDay(rows: BucketRow[]): Map<number, BucketRow[]> {
    const out = new Map<number, BucketRow[]>();
    for (const row of rows) {
      const day = bucketStart(row[0], DAY);
      let list = out.get(day);
      if (!list) out.set(day, (list = []));
      list.push(row);
    }
    return out;
  }

  return {
    /**
     * A sensor's buckets of `size` (a size that divides a day) starting in [from, to), as
     * stretches in time order: each whole day inside the range from the cache where it is still
     * current, the partial days at the edges read as they are. Rows are in the columns of `read`,
     * whose first column is the bucket's start.
     */
    async stretches(read: BucketRead, sensorId: number, size: number, from: number, to: number): Promise<Stretch[]> {
      const firstDay = bucketStart(from + DAY - 1, DAY);
      const endDay = bucketStart(to, DAY);
      if (firstDay >= endDay) return [{ rows: await source.bucketRows(read, sensorId, size, from, to) }];
      const stamps = await source.dayStamps(sensorId, firstDay, endDay);
      const keyOf = (day: number) => `${read}:${size}:${sensorId}:${day}`;
      const found: (Day | undefined)[] = stamps.map(([day, stamp]) => {
        const key = keyOf(day);
        const kept = days.get(key);
        if (kept?.stamp !== stamp) return undefined;
        // Moves it to the most recently used end.
        days.delete(key);
        days.set(key, kept);
        return kept;
      });
      const missing = stamps.filter((_, i) => found[i] === undefined);
      if (missing.length > 0) {
        const fresh = byDay(await source.bucketRows(read, sensorId, size, missing[0][0], missing[missing.length - 1][0] + DAY));
        stamps.forEach(([day, stamp], i) => {
          if (found[i] !== undefined) return;
          const entry: Day = { stamp, rows: fresh.get(day) ?? [] };
          keep(keyOf(day), entry);
          found[i] = entry;
        });
      }
      const out: Stretch[] = [];
      if (from < firstDay) out.push({ rows: await source.bucketRows(read, sensorId, size, from, firstDay) });
      for (const day of found) out.push({ day: day as Day });
      if (endDay < to) out.push({ rows: await source.bucketRows(read, sensorId, size, endDay, to) });
      return out;
    },

    /** How many rows are kept (for tests and metrics). */
    size: () => keptRows,
  };
}
export type DayCache = ReturnType<typeof dayCache>;

/** The rows of the stretches, in order. */
export function rowsOf(stretches: readonly Stretch[]): BucketRow[] {
  const out: BucketRow[] = [];
  for (const s of stretches) for (const row of 'day' in s ? s.day.rows : s.rows) out.push(row);
  return out;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * The stretches as the bytes of a JSON array, each row through `rowJson`; a kept day's part is
 * made once and reused, so a repeated long read copies bytes instead of writing text. Every
 * caller of one (read, size) must give the same `rowJson`: the part is kept per day.
 */
export function jsonArrayOf(stretches: readonly Stretch[], rowJson: (row: BucketRow) => string): Buffer {
  const parts: Buffer[] = [OPEN];
  const encode = (rows: BucketRow[]) => Buffer.from(rows.map(rowJson).join(','));
  for (const s of stretches) {
    const part = 'day' in s ? (s.day.json ??= encode(s.day.rows)) : encode(s.rows);
    if (part.length === 0) continue;
    if (parts.length > 1) parts.push(COMMA);
    parts.push(part);
  }
  parts.push(CLOSE);
  return Buffer.concat(parts);
}
