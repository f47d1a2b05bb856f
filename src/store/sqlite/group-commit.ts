import type SQLite from 'better-sqlite3';
import type { NewMeasurement, StoredMeasurement } from '../database.js';
import { type IngestJob, takeJobs } from '../ingest-jobs.js';
import { sensorOrder } from './sensor-order.js';

/**
 * Rows per insert statement at most. A request's rows go in as statements of exactly this many
 * and one of the rest, each prepared once for its size: one statement of 100 rows costs
 * noticeably less than 64 + 32 + 4.
 */
const MAX_ROWS_PER_STATEMENT = 128;

/** The rows of the requests whose inserts succeeded, in order. */
function committedRows(results: readonly (StoredMeasurement[] | { error: unknown })[]): StoredMeasurement[] {
  const rows: StoredMeasurement[] = [];
  for (const result of results) if (Array.isArray(result)) for (const row of result) rows.push(row);
  return rows;
}

export interface GroupCommitOptions {
  /** Rows per commit at most: a burst of large batches cannot hold the event loop for long. */
  maxRowsPerCommit?: number;
  /** Told the rows of every request once they are committed, before any request is answered. */
  onCommitted?(rows: readonly StoredMeasurement[]): void;
  /** Run inside the commit's transaction with every row it wrote (the history buckets); throwing fails the commit. */
  beforeCommit?(rows: readonly StoredMeasurement[]): void;
  /** Told how many requests and rows each commit carried (metrics). */
  onGroupCommitted?(requests: number, rows: number): void;
}

/**
 * Group commit for SQLite ingest: measurement inserts that arrive while the event loop is busy
 * are written in one transaction (all in one savepoint, or should that fail each request in its
 * own, so one failing request leaves the others in), and every request is acknowledged only after
 * that transaction commits.
 * One commit per HTTP request would cap ingest far below what the HTTP layer can carry.
 *
 * It shares the connection with the query builder: the flush is synchronous, so nothing can
 * interleave with it, and it waits while the query builder holds a transaction open on the
 * connection (it would otherwise become part of that transaction).
 */
export function sqliteGroupCommit(
  sqlite: SQLite.Database,
  { maxRowsPerCommit = 50_000, onCommitted, beforeCommit, onGroupCommitted }: GroupCommitOptions = {},
) {
  const bySize = new Map<number, { statement: SQLite.Statement; params: number[] }>();
  function insertOf(size: number) {
    let prepared = bySize.get(size);
    if (!prepared) {
      const values = Array(size).fill('(?, ?, ?)').join(', ');
      prepared = {
        statement: sqlite.prepare(`insert into measurements (sensor_id, value, timestamp) values ${values}`),
        params: new Array<number>(size * 3),
      };
      bySize.set(size, prepared);
    }
    return prepared;
  }
  const insertJob = sqlite.transaction((rows: readonly NewMeasurement[]) => {
    const out: StoredMeasurement[] = new Array(rows.length);
    // Inserted a sensor at a time (see sensorOrder); each row is answered in its own place.
    const order = sensorOrder(rows);
    for (let i = 0; i < rows.length;) {
      const size = Math.min(MAX_ROWS_PER_STATEMENT, rows.length - i);
      const { statement, params } = insertOf(size);
      for (let k = 0; k < size; k++) {
        const row = rows[order ? order[i + k] : i + k];
        params[3 * k] = row.sensor_id;
        params[3 * k + 1] = row.value;
        params[3 * k + 2] = row.timestamp;
      }
      // A rowid table assigns consecutive ids within one statement of the only writer, so a
      // statement's ids end at its last insert rowid.
      const last = Number(statement.run(params).lastInsertRowid);
      for (let k = 0; k < size; k++) {
        const place = order ? order[i + k] : i + k;
        const row = rows[place];
        out[place] = { measurement_id: last - size + 1 + k, sensor_id: row.sensor_id, value: row.value, timestamp: row.timestamp };
      }
      i += size;
    }
    return out;
  });
  /**
   * A failed savepoint leaves the enclosing transaction open, unless SQLite rolled it back on its
   * own (it may on SQLITE_FULL, a disk I/O error or no memory): then the whole commit has failed,
   * and a further insert must not run, as it would commit on its own outside it.
   */
  function unlessTransactionLost(error: unknown): void {
    if (!sqlite.inTransaction) throw error;
  }

  /** Each request in its own savepoint, so that one failing leaves the others in. */
  function insertEach(jobs: readonly IngestJob[]): (StoredMeasurement[] | { error: unknown })[] {
    return jobs.map((job) => {
      try {
        return insertJob(job.rows);
      } catch (error) {
        unlessTransactionLost(error);
        return { error };
      }
    });
  }

  /**
   * Every request's rows in one savepoint, in statements of many rows (hundreds of single-row
   * requests cost a few statements, not three each); undefined when it fails, leaving nothing:
   * the requests are then tried one by one, to tell which one failed.
   */
  function insertTogether(jobs: readonly IngestJob[]): { perJob: StoredMeasurement[][]; rows: StoredMeasurement[] } | undefined {
    const rows: NewMeasurement[] = [];
    for (const job of jobs) for (const row of job.rows) rows.push(row);
    let stored: StoredMeasurement[];
    try {
      stored = insertJob(rows);
    } catch (error) {
      unlessTransactionLost(error);
      return undefined;
    }
    let at = 0;
    return { perJob: jobs.map((job) => stored.slice(at, (at += job.rows.length))), rows: stored };
  }

  const pending: IngestJob[] = [];
  let scheduled = false;

  function schedule(delayMs: number): void {
    if (scheduled) return;
    scheduled = true;
    if (delayMs === 0) setImmediate(flush);
    else setTimeout(flush, delayMs);
  }

  function flush(): void {
    scheduled = false;
    if (pending.length === 0) return;
    if (sqlite.inTransaction) {
      schedule(1);
      return;
    }
    // Bound one commit's size so a burst of large batches cannot hold the event loop for long.
    const jobs = takeJobs(pending, maxRowsPerCommit);
    if (pending.length > 0) schedule(0);

    let results: (StoredMeasurement[] | { error: unknown })[] = [];
    try {
      sqlite.transaction(() => {
        const together = jobs.length > 1 ? insertTogether(jobs) : undefined;
        results = together ? together.perJob : insertEach(jobs);
        if (!beforeCommit) return;
        if (together) beforeCommit(together.rows);
        else beforeCommit(results.length === 1 && Array.isArray(results[0]) ? results[0] : committedRows(results));
      })();
    } catch (error) {
      for (const job of jobs) job.reject(error);
      return;
    }
    if (onGroupCommitted)
      onGroupCommitted(
        jobs.length,
        jobs.reduce((n, job) => n + job.rows.length, 0),
      );
    jobs.forEach((job, i) => {
      const result = results[i];
      if (Array.isArray(result)) {
        onCommitted?.(result);
        job.resolve(result);
      } else {
        job.reject(result.error);
      }
    });
  }

  return {
    /** Inserts the rows (all or none of them), resolving once they are committed. */
    insert(rows: readonly NewMeasurement[]): Promise<StoredMeasurement[]> {
      if (rows.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        pending.push({ rows, resolve, reject });
        schedule(0);
      });
    },
  };
}
