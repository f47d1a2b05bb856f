import type { TableCounts } from './types.js';
import { inWorker, type WorkerProgress } from './worker.js';

/** Pages per step of the online backup: 64 pages of 4 KiB, well under a millisecond each. */
const STEP_PAGES = 64;

/**
 * A consistent copy of the SQLite file `source` at `dest` through SQLite's online backup, taken
 * from a read-only connection in a worker thread: each step copies a few pages, and the service's
 * writer is never blocked (a WAL reader holds no lock against it). Answers every table's row count
 * in the snapshot the copy was taken from.
 */
export async function backupSqliteFile(source: string, dest: string, progress: WorkerProgress): Promise<TableCounts> {
  const { counts } = await inWorker<{ counts: TableCounts }>('backup', { source, dest, stepPages: STEP_PAGES }, progress);
  return counts;
}

/** What reading a copy back found. */
export interface CopyCheck {
  ok: boolean;
  /** What is wrong, empty when ok. */
  problems: string[];
  counts: TableCounts;
}

/** Tables a file must hold to be a store of this service. */
const SERVICE_TABLES = [
  'prototypes',
  'sensors',
  'actuators',
  'measurements',
  'users',
  'settings',
  'alerts',
  'history_buckets',
  'kysely_migration',
];

/**
 * Reads a copy back: made one self-contained file (journal mode DELETE), then opened read-only:
 * `PRAGMA integrity_check` must answer ok, the service's tables must be there, and, when
 * `expected` is given, each of its tables must hold exactly that many rows.
 */
export async function checkSqliteCopy(file: string, expected?: TableCounts): Promise<CopyCheck> {
  let found: { integrity: string[]; counts: TableCounts };
  try {
    found = await inWorker('check', { file });
  } catch (error) {
    return { ok: false, problems: [`not a readable SQLite file: ${(error as Error).message}`], counts: {} };
  }
  const problems: string[] = [];
  if (found.integrity.length !== 1 || found.integrity[0] !== 'ok')
    problems.push(`integrity_check: ${found.integrity.slice(0, 5).join('; ')}`);
  const missing = SERVICE_TABLES.filter((table) => !(table in found.counts));
  if (missing.length > 0) problems.push(`missing tables: ${missing.join(', ')}`);
  for (const [table, rows] of Object.entries(expected ?? {})) {
    if (found.counts[table] !== rows) problems.push(`${table}: ${found.counts[table] ?? 'no table'} rows, expected ${rows}`);
  }
  return { ok: problems.length === 0, problems, counts: found.counts };
}
