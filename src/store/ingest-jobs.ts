import type { NewMeasurement, StoredMeasurement } from './database.js';

/** One ingest request waiting for its commit: its rows, and how to answer it. */
export interface IngestJob {
  rows: readonly NewMeasurement[];
  resolve(rows: StoredMeasurement[]): void;
  reject(error: unknown): void;
}

/** Takes waiting requests off the front of `pending`, whole, up to `maxRows` rows (at least one request). */
export function takeJobs(pending: IngestJob[], maxRows: number): IngestJob[] {
  const jobs: IngestJob[] = [];
  let rows = 0;
  while (pending.length > 0 && (jobs.length === 0 || rows + pending[0].rows.length <= maxRows)) {
    const job = pending.shift() as IngestJob;
    rows += job.rows.length;
    jobs.push(job);
  }
  return jobs;
}
