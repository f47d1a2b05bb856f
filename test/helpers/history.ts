import { type Kysely, Migrator } from 'kysely';
import { expect } from 'vitest';
import { type Bucket, bucketsOf } from '../../src/domain/bucket-fold.js';
import { answerOfBucket } from '../../src/history/service.js';
import type { Database, StoredMeasurement } from '../../src/store/database.js';
import type { Dialect, StoreKind } from '../../src/store/dialect.js';
import { bucketOf } from '../../src/store/history-sql.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { bareConnection, type ScratchDatabase, scratchDatabase } from './stores.js';

/**
 * A fresh store as the release before history left it (migrated to `004_no_nul`), with prototype
 * 0 and these pH sensors on it: what the history migration upgrades.
 */
export async function storeBeforeHistory(
  kind: StoreKind,
  sensorIds: readonly number[],
): Promise<{ database: ScratchDatabase; db: Kysely<Database>; dialect: Dialect }> {
  const database = await scratchDatabase(kind);
  const { db, dialect } = bareConnection(kind, database.url);
  const { error } = await new Migrator({ db, provider: migrationProvider(dialect) }).migrateTo('004_no_nul');
  expect(error).toBeUndefined();
  await db.insertInto('prototypes').values({ prototype_id: 0, prototype_name: 'tank' }).execute();
  for (const sensor_id of sensorIds) {
    await db
      .insertInto('sensors')
      .values({
        sensor_id,
        sensor_type: 'ph',
        prototype_id: 0,
        sensor_unit: 'pH',
        threshold_critically_low: 0,
        threshold_low: 1,
        threshold_high: 2,
        threshold_critically_high: 3,
      })
      .execute();
  }
  return { database, db, dialect };
}

/** Every raw measurement, timestamps in epoch ms. */
export function rawRows(db: Kysely<Database>, dialect: Dialect): Promise<StoredMeasurement[]> {
  return db
    .selectFrom('measurements')
    .select(['measurement_id', 'sensor_id', 'value', dialect.timestampMs().as('timestamp')])
    .execute();
}

/** The stored buckets of one sensor and size, in time order. */
export async function storedBuckets(db: Kysely<Database>, sensorId: number, size: number): Promise<Bucket[]> {
  const rows = await db
    .selectFrom('history_buckets')
    .selectAll()
    .where('sensor_id', '=', sensorId)
    .where('size_ms', '=', size)
    .orderBy('start_ms')
    .execute();
  return rows.map(bucketOf);
}

/** A measurement as the API answers it. */
export interface MeasurementRow {
  measurement_id: number;
  sensor_id: number;
  value: number;
  timestamp: string;
}

const iso = (t: number) => new Date(t).toISOString();

/** The aggregate answer for buckets of `size`, computed here from the raw rows they hold. */
export function aggregateOfRows(rows: readonly MeasurementRow[], size: number) {
  return bucketsOf(
    rows.map((r) => ({ measurement_id: r.measurement_id, value: r.value, timestamp: Date.parse(r.timestamp) })),
    size,
  ).map((b) => {
    const answer = answerOfBucket(b, size);
    return { ...answer, start: iso(answer.start), end: iso(answer.end) };
  });
}
