import { isoOf } from './date-time.js';

/** A stored measurement's fields, as the store reads them (timestamp in epoch ms). */
export interface MeasurementRow {
  measurement_id: number;
  sensor_id: number;
  value: number;
  timestamp: number;
}

/** A measurement as JSON text, the same as the response schema writes it (values are always finite). */
export const measurementJson = (m: MeasurementRow) =>
  `{"measurement_id":${m.measurement_id},"sensor_id":${m.sensor_id},"value":${m.value},"timestamp":"${isoOf(m.timestamp)}"}`;
