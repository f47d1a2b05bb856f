import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { dropRunDatabases } from './scratch-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The start of the name of every PostgreSQL database this run makes (see scratch-postgres.ts). */
    databasePrefix: string;
  }
}

/**
 * Fails fast, with a clear message, when TEST_DATABASE_URL is set but PostgreSQL does not answer;
 * names this run's scratch databases, and drops whatever is left of them at the end.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const prefix = `sensorhub_test_${randomBytes(4).toString('hex')}_`;
  project.provide('databasePrefix', prefix);
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return undefined;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(`TEST_DATABASE_URL is set but PostgreSQL does not answer: ${(error as Error).message}`, { cause: error });
  } finally {
    await client.end().catch(() => {});
  }
  return () => dropRunDatabases(url, prefix);
}
