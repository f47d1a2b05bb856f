import pg from 'pg';

/** Fails fast, with a clear message, when TEST_DATABASE_URL is set but PostgreSQL does not answer. */
export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(`TEST_DATABASE_URL is set but PostgreSQL does not answer: ${(error as Error).message}`, { cause: error });
  } finally {
    await client.end().catch(() => {});
  }
}
