import type { Sensor } from '../domain/sensor.js';
import { isoOf } from '../domain/date-time.js';
import type { Thresholds } from '../domain/thresholds.js';

/** One CSV field per RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(fields: readonly (string | number)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

const EXPORT_HEADER = [
  'Sensor ID',
  'Sensor Type',
  'Sensor Value',
  'Timestamp',
  'Threshold Critically Low',
  'Threshold Low',
  'Threshold High',
  'Threshold Critically High',
] as const;

/** What an export row says of its sensor. */
type ExportedSensor = Pick<Sensor, 'sensor_id' | 'sensor_type'> & Thresholds;

/**
 * The export's text: the header, then each sensor's measurements as `walk` reads them, one chunk
 * per page (or as the store's `copy` writes them). The parts of a line that repeat for every row of
 * a sensor are written once per sensor.
 */
export async function* exportLines(
  sensors: readonly ExportedSensor[],
  walk: (sensorId: number) => AsyncIterable<readonly { value: number; timestamp: number }[]>,
  copy?: (sensorId: number, head: string, tail: string) => AsyncIterable<Buffer>,
): AsyncGenerator<string | Buffer> {
  yield csvRow(EXPORT_HEADER);
  for (const sensor of sensors) {
    const head = `${sensor.sensor_id},${csvField(sensor.sensor_type)},`;
    const thresholds = `,${sensor.threshold_critically_low},${sensor.threshold_low},${sensor.threshold_high},${sensor.threshold_critically_high}`;
    // Where the store writes the lines itself (PostgreSQL's COPY), they come as it wrote them.
    if (copy) {
      yield* copy(sensor.sensor_id, head, thresholds);
      continue;
    }
    const tail = `${thresholds}\r\n`;
    for await (const page of walk(sensor.sensor_id)) {
      let chunk = '';
      for (const m of page) chunk += head + m.value + ',' + isoOf(m.timestamp) + tail;
      yield chunk;
    }
  }
}
