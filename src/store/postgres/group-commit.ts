import type { NewMeasurement, StoredMeasurement } from '../database.js';
import { isStoreUnavailable } from '../errors.js';
import { type IngestJob, takeJobs } from '../ingest-jobs.js';

export interface PostgresGroupCommitOptions {
  /** Combined inserts under way at once; the requests that arrive meanwhile wait for the next. */
  maxInFlight?: number;
  /** Rows per combined insert at most. */
  maxRows?: number;
  /** Told how many requests and rows each committed insert carried (metrics). */
  onGroupCommitted?(requests: number, rows: number): void;
}

/**
 * Group commit for PostgreSQL ingest: the measurements of requests that arrive while earlier
 * inserts are under way go in together, as one insert statement and so one commit (one WAL
 * flush) for all of them. The first request of a quiet moment goes at once, alone: nobody waits
 * for company. Every request is answered once the insert holding its rows has committed, with
 * its own rows and ids.
 *
 * All or nothing per request, as before: a combined insert that fails for a reason of the data
 * has written nothing (one statement), so each request is then inserted on its own and only the
 * faulty one fails. A failure of the database itself (connection lost, timeout) fails them all:
 * whether it committed cannot be known, and running it again could store rows twice.
 */
export function postgresGroupCommit(
  insert: (rows: readonly NewMeasurement[]) => Promise<StoredMeasurement[]>,
  { maxInFlight = 2, maxRows = 10_000, onGroupCommitted }: PostgresGroupCommitOptions = {},
) {
  const pending: IngestJob[] = [];
  let inFlight = 0;

  async function insertEachAlone(jobs: IngestJob[]): Promise<void> {
    await Promise.all(
      jobs.map(async (job) => {
        try {
          const stored = await insert(job.rows);
          onGroupCommitted?.(1, stored.length);
          job.resolve(stored);
        } catch (error) {
          job.reject(error);
        }
      }),
    );
  }

  async function insertTogether(jobs: IngestJob[]): Promise<void> {
    if (jobs.length === 1) return insertEachAlone(jobs);
    let stored: StoredMeasurement[];
    try {
      stored = await insert(jobs.flatMap((job) => job.rows));
    } catch (error) {
      if (isStoreUnavailable(error)) {
        for (const job of jobs) job.reject(error);
        return;
      }
      return insertEachAlone(jobs);
    }
    onGroupCommitted?.(jobs.length, stored.length);
    // Rows come back in the order they were given, so each request's rows are one slice.
    let at = 0;
    for (const job of jobs) {
      job.resolve(stored.slice(at, at + job.rows.length));
      at += job.rows.length;
    }
  }

  function pump(): void {
    while (inFlight < maxInFlight && pending.length > 0) {
      const jobs = takeJobs(pending, maxRows);
      inFlight++;
      void insertTogether(jobs).finally(() => {
        inFlight--;
        pump();
      });
    }
  }

  return {
    /** Inserts the rows (all or none of them), resolving once they are committed. */
    insert(rows: readonly NewMeasurement[]): Promise<StoredMeasurement[]> {
      if (rows.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        pending.push({ rows, resolve, reject });
        pump();
      });
    },
  };
}
