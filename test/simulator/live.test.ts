/**
 * A live run: the built simulator (`npm run simulate`) against the service as a real process on
 * a free port, in real time, for a few seconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestJson, run, spawnService, type ServiceProcess } from '../helpers/process.js';

const SIMULATE = new URL('../../dist/cli/simulate.js', import.meta.url).pathname;

describe('a live run against a service process', () => {
  let dir: string;
  let service: ServiceProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sensorhub-simulate-live-'));
    service = await spawnService({ DATABASE_URL: `sqlite:${join(dir, 'sensorhub.db')}`, SEED_DEFAULTS: 'true' });
  });

  afterAll(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets up the seeded prototype, posts readings as time passes and polls the pump', async () => {
    // 4 s of tank time at a reading a second; the run ends by itself.
    const result = await run(process.execPath, [
      SIMULATE,
      '--url',
      service.url,
      '--hours',
      String(4 / 3600),
      '--every',
      '1',
      '--poll',
      '1',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    // The seeded prototype 0 has ph, ec and temperature: the simulator added the water level.
    const sensors = (await requestJson(`${service.url}/sensors/0`)).body as { sensor_id: number; sensor_type: string }[];
    expect(sensors.map((s) => s.sensor_type).sort()).toEqual(['ec', 'ph', 'temperature', 'water_level']);
    const lines = result.stdout.trim().split('\n');
    const readingLines = lines.filter((line) => /^0:00:0\d {2}pH \d\.\d\d \(true 6\.00\)/.test(line));
    // One reading at the start, one at the end at least (a loaded machine may run late and skip some between).
    expect(readingLines.length).toBeGreaterThanOrEqual(2);
    for (const sensor of sensors) {
      const readings = (await requestJson(`${service.url}/measurements/${sensor.sensor_id}`)).body as { value: number }[];
      expect(readings.length, sensor.sensor_type).toBe(readingLines.length);
    }
    const ph = sensors.find((s) => s.sensor_type === 'ph')!;
    const phReadings = (await requestJson(`${service.url}/measurements/${ph.sensor_id}`)).body as { value: number }[];
    for (const reading of phReadings) expect(Math.abs(reading.value - 6)).toBeLessThan(0.05);

    // An acid pump on the pH sensor, enabled for the run (the seeded one if it watches pH, else a new one).
    const pumps = (await requestJson(`${service.url}/actuators/0`)).body as {
      actuator_type: string;
      enabled: boolean;
      sensor_id: number;
    }[];
    expect(pumps.filter((pump) => pump.sensor_id === ph.sensor_id)).toEqual([
      expect.objectContaining({ actuator_type: 'acid_pump', enabled: true, activation_condition: 'high', condition_value: 6.5 }),
    ]);

    // Progress on stdout: what it set up, then a line per reading.
    expect(lines[0]).toContain(`against ${service.url}, prototype 0`);
    expect(lines.some((line) => line.startsWith('created water_level sensor'))).toBe(true);
    // The pump was polled and its decision named by its reason: a working pump, not disabled or without readings.
    expect(lines.some((line) => /^pump \d+: (waiting|ok)\b/.test(line))).toBe(true);
  });

  it('says what is wrong when the service is not there', async () => {
    const result = await run(process.execPath, [SIMULATE, '--url', 'http://127.0.0.1:9', '--hours', '0.001']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is the service running at http://127.0.0.1:9?');
  });

  it('refuses an unknown fault with usage exit status 2', async () => {
    const result = await run(process.execPath, [SIMULATE, '--fault', 'flood']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown fault "flood"');
  });
});
