import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type Bucket, bucketStream } from '../../domain/bucket-fold.js';
import { KEPT_SIZES } from '../../domain/bucket-sizes.js';
import { BUCKET_COLUMNS, MERGE_ON_CONFLICT, newBucketStamp } from '../history-sql.js';
import type { GeneratedSeries, ReplaceSensors } from '../store.js';
import { binaryRows, type FieldType } from './binary-copy.js';

const RETIRED_BEFORE_KEY = 'history.raw_retired_before';

const BUCKET_TYPES: FieldType[] = [
  'int4',
  'int4',
  ...BUCKET_COLUMNS.slice(2).map((c): FieldType => (c.endsWith('_value') || c === 'value_sum' ? 'float8' : 'int8')),
  'int8',
];

/**
 * Reserves `count` consecutive measurement ids: the identity sequence steps by `count` once, in a
 * transaction that blocks other callers of the sequence for its moment (ALTER SEQUENCE takes a
 * lock nextval waits for). Answers the first id.
 */
async function reserveIds(client: pg.PoolClient, count: number): Promise<number> {
  const seq = "pg_get_serial_sequence('measurements', 'measurement_id')";
  const { rows } = await client.query<{ seq: string }>(`select ${seq} as seq`);
  const name = rows[0].seq;
  await client.query('begin');
  try {
    await client.query(`alter sequence ${name} increment by ${count}`);
    const last = Number((await client.query<{ v: string }>(`select nextval(${seq}) as v`)).rows[0].v);
    await client.query(`alter sequence ${name} increment by 1`);
    await client.query('commit');
    return last - count + 1;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  }
}

async function retiredBefore(client: pg.PoolClient): Promise<number> {
  const { rows } = await client.query<{ value: string }>('select value from settings where key = $1', [RETIRED_BEFORE_KEY]);
  return rows.length > 0 ? Number(rows[0].value) : -Infinity;
}

async function copyIn(client: pg.PoolClient, statement: string, rows: Iterable<Buffer>): Promise<void> {
  await pipeline(Readable.from(rows), client.query(copyFrom(statement)));
}

/** One COPY … FROM STDIN of `rows` (binary COPY buffers) on a connection of the pool, committed on its own. */
export async function copyRowsIn(pool: pg.Pool, statement: string, rows: Iterable<Buffer>): Promise<void> {
  const client = await pool.connect();
  let broken = false;
  try {
    await copyIn(client, statement, rows);
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    client.release(broken || undefined);
  }
}

/**
 * Generated series loaded by COPY in one transaction: ids reserved in one block beforehand and
 * given in each series' time order, the rows' buckets of every kept size summarized here from the
 * series, both streamed in PostgreSQL's binary format. `replace` empties the measurements, buckets
 * and noted hours first (truncate: no dead rows), in the same transaction: ingest waits for it,
 * as for any wipe of the whole store. Otherwise nothing ingest writes is held until the very end:
 * rows go in beside ingest's, and the buckets are merged into what is stored days and hours first,
 * then the 5-minute ones oldest first, so those live ingest writes (the newest) are held only for
 * the last moments before the commit.
 * The day partitions are made beforehand (`makeDays`). Answers how many rows `replace` removed.
 */
export async function loadSeries(
  pool: pg.Pool,
  series: readonly GeneratedSeries[],
  replace: boolean | ReplaceSensors,
  makeDays: () => Promise<void>,
): Promise<number> {
  const count = series.reduce((n, s) => n + s.timestamps.length, 0);
  await makeDays();
  const client = await pool.connect();
  try {
    // Rows older than retention's cutoff are left to retention, outside the buckets, as ingest
    // leaves them: their hours and days are the permanent record already.
    const cutoff = replace ? -Infinity : await retiredBefore(client);
    const firstId = count > 0 ? await reserveIds(client, count) : 0;
    // Each sensor's rows with their ids, and their buckets of every size.
    const sensorOf = new Int32Array(count);
    const at = new Float64Array(count);
    const value = new Float64Array(count);
    const buckets: { sensorId: number; size: number; bucket: Bucket }[] = [];
    let i = 0;
    for (const s of series) {
      const stream = bucketStream(KEPT_SIZES, (size, bucket) => buckets.push({ sensorId: s.sensorId, size, bucket }));
      for (let k = 0; k < s.timestamps.length; k++, i++) {
        sensorOf[i] = s.sensorId;
        at[i] = s.timestamps[k];
        value[i] = s.values[k];
        if (s.timestamps[k] >= cutoff) stream.push({ measurement_id: firstId + i, value: s.values[k], timestamp: s.timestamps[k] });
      }
      stream.end();
    }
    // Days and hours first, then the 5-minute buckets oldest first: those live ingest writes (the
    // newest) are locked in the last moments before the commit, each in the order ingest takes them.
    buckets.sort((a, b) => b.size - a.size || a.bucket.start - b.bucket.start || a.sensorId - b.sensorId);
    const stamp = newBucketStamp();

    await client.query('begin');
    try {
      let deleted = 0;
      if (typeof replace === 'object') {
        // One tank's sensors only: their rows, buckets and noted hours; the rest of the store stays.
        const ids = [...replace.sensorIds];
        deleted = (await client.query('delete from measurements where sensor_id = any($1::int[])', [ids])).rowCount ?? 0;
        await client.query('delete from history_buckets where sensor_id = any($1::int[])', [ids]);
        await client.query('delete from history_pending where sensor_id = any($1::int[])', [ids]);
      } else if (replace) {
        deleted = Number(
          (
            await client.query<{ n: string }>(
              'select count(*) as n from measurements where sensor_id = any(array(select sensor_id from sensors))',
            )
          ).rows[0].n,
        );
        await client.query('truncate measurements, history_buckets, history_pending');
        await client.query('delete from settings where key = $1', [RETIRED_BEFORE_KEY]);
      }
      await copyIn(
        client,
        'copy measurements (measurement_id, sensor_id, value, timestamp) from stdin (format binary)',
        binaryRows(['int8', 'int4', 'float8', 'timestamptz'], count, (k, out) => {
          out[0] = firstId + k;
          out[1] = sensorOf[k];
          out[2] = value[k];
          out[3] = at[k];
        }),
      );
      const bucketFields = (k: number, out: number[]) => {
        const { sensorId, size, bucket: b } = buckets[k];
        out[0] = sensorId;
        out[1] = size;
        out[2] = b.start;
        out[3] = b.count;
        out[4] = b.sum;
        out[5] = b.min.value;
        out[6] = b.min.ts;
        out[7] = b.min.id;
        out[8] = b.max.value;
        out[9] = b.max.ts;
        out[10] = b.max.id;
        out[11] = b.first.value;
        out[12] = b.first.ts;
        out[13] = b.first.id;
        out[14] = b.last.value;
        out[15] = b.last.ts;
        out[16] = b.last.id;
        out[17] = stamp;
      };
      const columns = [...BUCKET_COLUMNS, 'stamp'].join(', ');
      if (replace) {
        await copyIn(
          client,
          `copy history_buckets (${columns}) from stdin (format binary)`,
          binaryRows(BUCKET_TYPES, buckets.length, bucketFields),
        );
      } else {
        await client.query('create temporary table loaded_buckets (like history_buckets) on commit drop');
        await copyIn(
          client,
          `copy loaded_buckets (${columns}) from stdin (format binary)`,
          binaryRows(BUCKET_TYPES, buckets.length, bucketFields),
        );
        // In the copied order: days, hours, then 5-minute buckets oldest first.
        await client.query(
          `insert into history_buckets as b (${columns}) select ${columns} from loaded_buckets
           where sensor_id = any($1::int[]) order by size_ms desc, start_ms, sensor_id ${MERGE_ON_CONFLICT}`,
          [series.map((s) => s.sensorId)],
        );
      }
      await client.query('commit');
      return deleted;
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    }
  } finally {
    client.release();
  }
}
