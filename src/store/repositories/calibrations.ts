import type { Kysely, Selectable } from 'kysely';
import type { CalibrationPoint, StoredCalibration } from '../../domain/calibration.js';
import type { RecordPage } from '../../domain/journal-page.js';
import type { CalibrationTable, Database } from '../database.js';
import type { Dialect } from '../dialect.js';
import { paged } from './record-page.js';

const toCalibration = (row: Selectable<CalibrationTable>): StoredCalibration => ({
  ...row,
  points: JSON.parse(row.points) as CalibrationPoint[],
  accepted: Boolean(row.accepted),
});

/** The calibrations of the sensors' probes (docs/api.md §15). */
export function calibrationRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    async record(calibration: Omit<StoredCalibration, 'calibration_id'>): Promise<StoredCalibration> {
      const row = await db
        .insertInto('calibrations')
        .values({
          sensor_id: calibration.sensor_id,
          calibrated_at: dialect.time(calibration.calibrated_at),
          points: JSON.stringify(calibration.points.map(({ reference, reading }) => ({ reference, reading }))),
          slope: calibration.slope,
          offset: calibration.offset,
          accepted: dialect.bool(calibration.accepted),
          note: calibration.note,
          author: calibration.author,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toCalibration(row);
    },

    /** The sensor's calibrations, newest first (ties: the later recorded), at most `limit`. */
    async list(sensorId: number, limit: number): Promise<StoredCalibration[]> {
      const rows = await db
        .selectFrom('calibrations')
        .selectAll()
        .where('sensor_id', '=', sensorId)
        .orderBy('calibrated_at', 'desc')
        .orderBy('calibration_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toCalibration);
    },

    /** A page of the calibrations of the prototype's sensors (the journal). */
    async ofPrototype(prototypeId: number, page: RecordPage): Promise<StoredCalibration[]> {
      const query = db
        .selectFrom('calibrations')
        .innerJoin('sensors', 'sensors.sensor_id', 'calibrations.sensor_id')
        .selectAll('calibrations')
        .where('sensors.prototype_id', '=', prototypeId);
      const rows = await paged(query, { at: 'calibrations.calibrated_at', id: 'calibrations.calibration_id' }, page, dialect).execute();
      return rows.map(toCalibration);
    },
  };
}

export type CalibrationRepository = ReturnType<typeof calibrationRepository>;
