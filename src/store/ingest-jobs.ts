import type { NewMeasurement, StoredMeasurement } from './database.js';

/** One ingest request waiting for its commit: its rows, and how to answer it. */
export interface IngestJob {
  rows: readonly NewMeasurement[];
  resolve(rows: StoredMeasurement[]): void;
  reject(error: unknown): void;
}

/** Takes waiting requests off the front of `pending`, whole, up to `maxRows` rows (at least one request). */
export function takeJobs(pending: IngestJob[], maxRows: number): IngestJob[] {
  let count = 0;
  let rows = 0;
  while (count < pending.length && (count === 0 || rows + pending[count].rows.length <= maxRows)) {
    rows += pending[count].rows.length;
    count += 1;
  }
  // One splice: thousands of single-row requests can wait at once, and shifting them one by one costs their square.
  return pending.splice(0, count);
}
