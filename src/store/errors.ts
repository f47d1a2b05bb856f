import { resolve } from 'node:path';

/**
 * True for errors that mean the store cannot be reached (the database went away, the pool timed
 * out, a statement hit its time limit, the server stopped answering), as opposed to a fault in a
 * request. Every one of them is a 503: a timeout is never the client's fault.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code ?? '';
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'SQLITE_BUSY', 'SQLITE_LOCKED'].includes(code)) {
    return true;
  }
  // PostgreSQL: 08xxx connection exceptions, 57P01-03 admin shutdown / crash / cannot connect now, 57014 statement timeout.
  if (/^08/.test(code) || ['57P01', '57P02', '57P03', '57014', '53300'].includes(code)) return true;
  // node-postgres: its own time limits (query_timeout: "Query read timeout"; connectionTimeoutMillis)
  // and connections lost mid-use carry no code, only these messages.
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|Connection is not open|not queryable/i.test(
    error.message,
  );
}

/**
 * True for a write that refers to a row that is not there (a foreign key): a sensor or prototype
 * deleted by a concurrent request, or by another process whose deletion this one has not seen.
 */
export function isMissingReference(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * True for a write refused because the disk is full: SQLite's SQLITE_FULL (its file or journal
 * could not grow), PostgreSQL's 53100 disk_full (the server's disk), and the file system's ENOSPC
 * and EDQUOT (a quota) for the files written beside the store. Not SQLITE_IOERR_*: SQLite
 * reports ENOSPC on a write as SQLITE_FULL, and an I/O error with no more said is as likely a
 * failing card as a full one, which "free some space" would not mend.
 */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * Which disk an operator must free when the store is full, as the answers say it: the one holding
 * the SQLite file, or the PostgreSQL server's (its URL is not repeated: it may hold a password).
 */
export function storeDiskOf(databaseUrl: string): string {
  if (databaseUrl === 'sqlite::memory:') return "the service's memory (the store is in memory)";
  if (databaseUrl.startsWith('sqlite:')) return `the disk holding ${resolve(databaseUrl.replace(/^sqlite:(\/\/)?/, ''))}`;
  return "the PostgreSQL server's disk (its data directory)";
}
