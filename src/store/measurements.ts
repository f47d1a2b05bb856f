import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { Dialect } from './dialect.js';

/** A measurement as the service handles it: the timestamp in epoch milliseconds. */
export interface StoredMeasurement {
  measurement_id: number;
  sensor_id: number;
  value: number;
  timestamp: number;
}

export interface NewMeasurement {
  sensor_id: number;
  value: number;
  timestamp: number;
}

export function measurementRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** Inserts the rows in order and returns them with their ids, in the same order. */
    async insertMany(rows: readonly NewMeasurement[]): Promise<StoredMeasurement[]> {
      if (rows.length === 0) return [];
      const inserted = await db
        .insertInto('measurements')
        .values(rows.map((r) => ({ sensor_id: r.sensor_id, value: r.value, timestamp: dialect.time(r.timestamp) })))
        .returningAll()
        .execute();
      return inserted;
    },

    /** The newest measurement of a sensor by timestamp (ties: the highest id). */
    last(sensorId: number): Promise<StoredMeasurement | undefined> {
      return db
        .selectFrom('measurements')
        .selectAll()
        .where('sensor_id', '=', sensorId)
        .orderBy('timestamp', 'desc')
        .orderBy('measurement_id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
  };
}

export type MeasurementRepository = ReturnType<typeof measurementRepository>;
