import { spawnSync } from 'node:child_process';
import SQLite from 'better-sqlite3';
import { load, type LoadResult } from './load.js';
import { startService } from './processes.js';
import { createBenchSensors } from './sensors.js';

const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * A store with `rows` measurements across `sensors` sensors, written straight into the SQLite file
 * (the fastest way to get a large store to measure against): the last day holds the same number
 * of rows whatever the size (up to 1,000 per sensor), the rest is spread over the year before it,
 * so a 1-day window answers the same rows from a store of any size.
 */
export async function fillMeasurements(file: string, rows: number, sensors: number, log: (m: string) => void): Promise<void> {
  await createBenchSensors(`sqlite:${file}`, sensors);
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const insert = db.prepare('insert into measurements (sensor_id, value, timestamp) values (?, ?, ?)');
  const now = Date.now();
  const DAY_MS = 24 * 3600 * 1000;
  const recent = Math.min(rows, 1000 * sensors);
  const older = rows - recent;
  // Transactions of 50,000 rows, the event loop let go between them: Ctrl-C is handled (and the
  // temporary folder removed) within a moment, not after the whole fill.
  const chunk = 50_000;
  for (let start = 0; start < rows; start += chunk) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    db.transaction(() => {
      for (let i = start; i < Math.min(rows, start + chunk); i++) {
        const timestamp =
          i < older
            ? now - YEAR_MS + Math.floor((i / older) * (YEAR_MS - DAY_MS))
            : now - DAY_MS + 60_000 + Math.floor(((i - older) / recent) * (DAY_MS - 120_000));
        insert.run(1 + (i % sensors), 20 + Math.sin(i / 1000) * 5, timestamp);
      }
    })();
    if ((start + chunk) % 500_000 === 0 || start + chunk >= rows) log(`  ${Math.min(rows, start + chunk).toLocaleString('en-US')} rows`);
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

export async function windowScenario(databaseUrl: string, connections: number, durationS: number): Promise<LoadResult> {
  const service = await startService({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
  try {
    return await load({ url: `${service.url}/measurements/1?time_delta=P1D`, connections, durationS });
  } finally {
    await service.stop();
  }
}

/** Streams the whole export to nowhere and compares with the sqlite3 command-line tool writing the same rows. */
export async function exportScenario(
  databaseUrl: string,
  file: string,
): Promise<{ seconds: number; cliSeconds: number; peakRssMb: number; bytes: number }> {
  const service = await startService({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
  try {
    const started = performance.now();
    const response = await fetch(`${service.url}/measurements/export`);
    let bytes = 0;
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) bytes += chunk.length;
    const seconds = (performance.now() - started) / 1000;
    const peakRssMb = service.peakRssMb();

    const query =
      "select m.sensor_id, s.sensor_type, m.value, strftime('%Y-%m-%dT%H:%M:%fZ', m.timestamp / 1000.0, 'unixepoch'), " +
      's.threshold_critically_low, s.threshold_low, s.threshold_high, s.threshold_critically_high ' +
      'from measurements m join sensors s on s.sensor_id = m.sensor_id order by m.sensor_id, m.timestamp, m.measurement_id';
    const cliStarted = performance.now();
    const cli = spawnSync('sqlite3', ['-csv', file, query], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (cli.status !== 0) throw new Error('sqlite3 command-line tool failed');
    const cliSeconds = (performance.now() - cliStarted) / 1000;
    return { seconds, cliSeconds, peakRssMb, bytes };
  } finally {
    await service.stop();
  }
}

export async function randomScenario(databaseUrl: string, count: number): Promise<number> {
  const service = await startService({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
  try {
    const started = performance.now();
    const response = await fetch(`${service.url}/Measurement/Random`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nb_measurements: count }),
    });
    if (response.status !== 200) throw new Error(`random generation answered ${response.status}: ${await response.text()}`);
    return (performance.now() - started) / 1000;
  } finally {
    await service.stop();
  }
}
