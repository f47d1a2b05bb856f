import { isoOf } from '../../domain/date-time.js';
import { restAfter, type TimeWindow } from '../../domain/time-window.js';
import { ROWS_PER_PAGE } from '../repositories/measurements.js';
import type { SqliteReader } from './reader.js';

/**
 * One sensor's measurements in a window as the export's CSV lines (`head`, the value as
 * JavaScript writes it, a comma, the ISO timestamp, `tail`, CRLF), in time order, a page of bytes
 * at a time: read as arrays of the three columns the lines need rather than as measurement objects,
 * the other requests let run between pages.
 */
export async function* sqliteCsvLines(
  reader: SqliteReader,
  sensorId: number,
  window: TimeWindow,
  head: string,
  tail: string,
): AsyncGenerator<Buffer> {
  const end = `${tail}\r\n`;
  let after: { timestamp: number; id: number } | undefined;
  for (;;) {
    const rows = reader.valuePage(sensorId, after ? restAfter(window, after.timestamp) : window, after, ROWS_PER_PAGE);
    if (rows.length > 0) {
      let text = '';
      for (let i = 0; i < rows.length; i++) text += head + rows[i][0] + ',' + isoOf(rows[i][1]) + end;
      yield Buffer.from(text);
    }
    if (rows.length < ROWS_PER_PAGE) return;
    const last = rows[rows.length - 1];
    after = { timestamp: last[1], id: last[2] };
    await new Promise((resolve) => setImmediate(resolve));
  }
}
