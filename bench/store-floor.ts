/**
 * The store floor: a plain node:http server and better-sqlite3 doing only the store work of a
 * measurement read, on the SQLite file named by STORE_FILE (read-only), the naive way — the rows
 * read as objects, each timestamp made an ISO text by a Date, the answer written by
 * JSON.stringify (or, for the export, as CSV lines):
 *
 * - `GET /measurements/{id}?time_delta=P<n>D` (or no window): the sensor's rows in
 *   [now - n days, now], ascending by timestamp then id;
 * - `GET /measurements/export`: every row of every sensor with its sensor's type and thresholds,
 *   by sensor, timestamp and id, written in chunks as read.
 *
 * It checks nothing and answers nothing else: what the service does on top of this (the sensor
 * looked up, the window rules, the routes, the response's headers) is what it is compared for.
 * Prints its port once it listens.
 */
import { createServer, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import SQLite from 'better-sqlite3';

const file = process.env.STORE_FILE;
if (!file) throw new Error('STORE_FILE names the SQLite file');
const db = new SQLite(file, { readonly: true, fileMustExist: true });
const windowRows = db.prepare(
  'select measurement_id, sensor_id, value, timestamp from measurements where sensor_id = ? and timestamp >= ? and timestamp <= ? order by timestamp, measurement_id',
);
const exportRows = db.prepare(
  'select m.sensor_id, s.sensor_type, m.value, m.timestamp, s.threshold_critically_low, s.threshold_low, s.threshold_high, ' +
    's.threshold_critically_high from measurements m join sensors s on s.sensor_id = m.sensor_id order by m.sensor_id, m.timestamp, m.measurement_id',
);

interface Row {
  measurement_id: number;
  sensor_id: number;
  value: number;
  timestamp: number;
}

const DAY_MS = 24 * 3600 * 1000;

function windowJson(sensorId: number, days: number | undefined): string {
  const now = Date.now();
  const start = days === undefined ? Number.MIN_SAFE_INTEGER : now - days * DAY_MS;
  const rows = windowRows.all(sensorId, start, days === undefined ? Number.MAX_SAFE_INTEGER : now) as Row[];
  return JSON.stringify(rows.map((r) => ({ ...r, timestamp: new Date(r.timestamp).toISOString() })));
}

const csvField = (value: unknown) => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const HEADER =
  'Sensor ID,Sensor Type,Sensor Value,Timestamp,Threshold Critically Low,Threshold Low,Threshold High,Threshold Critically High\r\n';

async function writeExport(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
  let chunk = HEADER;
  for (const r of exportRows.iterate() as Iterable<Record<string, number | string>>) {
    chunk +=
      [
        r.sensor_id,
        r.sensor_type,
        r.value,
        new Date(r.timestamp as number).toISOString(),
        r.threshold_critically_low,
        r.threshold_low,
        r.threshold_high,
        r.threshold_critically_high,
      ]
        .map(csvField)
        .join(',') + '\r\n';
    if (chunk.length >= 65_536) {
      // A client gone (a load slice ending) ends the reading too: leaving the loop closes the statement.
      if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
      if (res.destroyed) return;
      chunk = '';
    }
  }
  res.end(chunk);
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://floor');
  if (url.pathname === '/measurements/export') {
    writeExport(res).catch(() => res.destroy());
    return;
  }
  const sensorId = Number(/^\/measurements\/(\d+)$/.exec(url.pathname)?.[1]);
  if (!Number.isInteger(sensorId)) {
    res.writeHead(404).end();
    return;
  }
  const delta = url.searchParams.get('time_delta');
  const days = delta === null ? undefined : Number(/^P(\d+)D$/.exec(delta)?.[1]);
  const body = windowJson(sensorId, days);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ msg: 'store floor ready', port: typeof address === 'object' && address ? address.port : 0 }));
});
process.on('SIGTERM', () => process.exit(0));
