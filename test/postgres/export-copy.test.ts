import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsNumberSql } from '../../src/store/postgres/csv-copy.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

describe.runIf(process.env.TEST_DATABASE_URL)('numbers in the CSV that PostgreSQL writes (COPY export)', () => {
  let database: ScratchDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  const written = async (values: number[]) =>
    (
      await client.query<{ t: string }>(`select ${jsNumberSql('v')} as t from unnest($1::float8[]) with ordinality as x(v, n) order by n`, [
        values,
      ])
    ).rows.map((r) => r.t);

  it('are written as JavaScript writes them, at every magnitude and at the edges of plain notation', async () => {
    const edges = [
      0,
      -0,
      1,
      -1,
      0.1,
      1e-4,
      1.5e-4,
      9.99e-5,
      1e-6,
      1.2e-6,
      1e-7,
      9.99e-7,
      1e-5,
      1e14,
      1e15,
      1.2345678901234568e15,
      1e20,
      9.99e20,
      1e21,
      1.5e21,
      // Halfway between two doubles from 2^53 up: JavaScript's shortest digits, not PostgreSQL's.
      44324914927017500,
      2 ** 60 + 2 ** 8,
      1.2345678901234567e19,
    ];
    const values = [...edges, ...edges.map((v) => -v), Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 5e-324, 123.45, 2 ** 53];
    expect(await written(values)).toEqual(values.map(String));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 200 }), async (doubles) => {
        expect(await written(doubles)).toEqual(doubles.map(String));
      }),
      { numRuns: 50 },
    );
  });
});
