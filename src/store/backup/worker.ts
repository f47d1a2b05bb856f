import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The copy and the checks run in a worker thread on connections of their own: a backup step, an
 * integrity check of a large file or a count of millions of rows would otherwise hold the event
 * loop that serves ingest. The worker is plain CommonJS given as text, so it runs the same from
 * the sources (tests) and from dist/, with the driver resolved here.
 */
const WORKER = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);

const quote = (name) => '"' + name.replace(/"/g, '""') + '"';
const tablesOf = (db) =>
  db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").pluck().all();
const countsOf = (db) => Object.fromEntries(tablesOf(db).map((t) => [t, db.prepare('select count(*) from ' + quote(t)).pluck().get()]));

const tasks = {
  // One read transaction over the whole copy: the counts and every page come from one snapshot,
  // and a WAL reader blocks no writer (the service's ingest goes on beside it).
  async backup({ source, dest, stepPages }) {
    const db = new SQLite(source, { readonly: true, fileMustExist: true });
    try {
      db.exec('BEGIN');
      const counts = countsOf(db);
      await db.backup(dest, {
        progress: ({ totalPages, remainingPages }) => {
          parentPort.postMessage({ type: 'progress', copied: totalPages - remainingPages, total: totalPages });
          return stepPages;
        },
      });
      db.exec('COMMIT');
      return { counts };
    } finally {
      db.close();
    }
  },
  // A copy is one self-contained file (no WAL beside it), then read back read-only.
  async check({ file }) {
    const writable = new SQLite(file, { fileMustExist: true });
    try {
      writable.pragma('journal_mode = DELETE');
    } finally {
      writable.close();
    }
    const db = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      const integrity = db.pragma('integrity_check').map((row) => row.integrity_check);
      return { integrity, counts: countsOf(db) };
    } finally {
      db.close();
    }
  },
};

tasks[workerData.task](workerData.args).then(
  (result) => parentPort.postMessage({ type: 'done', result }),
  (error) => parentPort.postMessage({ type: 'failed', message: error.message, code: error.code }),
);
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

export interface WorkerProgress {
  (copied: number, total: number): void;
}

/** Runs one task of the worker above; its progress messages go to `onProgress`. */
export function inWorker<T>(task: 'backup' | 'check', args: object, onProgress: WorkerProgress = () => {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { driver, task, args } });
    let settled = false;
    worker.on('message', (message: { type: string; copied: number; total: number; result: T; message: string; code?: string }) => {
      if (message.type === 'progress') return onProgress(message.copied, message.total);
      settled = true;
      if (message.type === 'done') resolve(message.result);
      else reject(Object.assign(new Error(message.message), { code: message.code }));
    });
    worker.on('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`the backup worker stopped (exit code ${code})`));
    });
  });
}
