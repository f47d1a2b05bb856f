/**
 * True for errors that mean the store cannot be reached (the database went away, the pool timed
 * out, a statement hit its time limit), as opposed to a fault in a request.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code ?? '';
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'SQLITE_BUSY', 'SQLITE_LOCKED'].includes(code)) {
    return true;
  }
  // PostgreSQL: 08xxx connection exceptions, 57P01-03 admin shutdown / crash / cannot connect now, 57014 statement timeout.
  if (/^08/.test(code) || ['57P01', '57P02', '57P03', '57014', '53300'].includes(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(error.message);
}

/**
 * True for a write that refers to a row that is not there (a foreign key): a sensor or prototype
 * deleted by a concurrent request, or by another process whose deletion this one has not seen.
 */
export function isMissingReference(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
