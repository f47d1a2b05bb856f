/**
 * A live run: the tank against a running service in real time (optionally sped up), so the
 * dashboard moves. Progress goes to `out`, one line per reading, run and decision change.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, httpApi } from './api.js';
import { alertsFromApi, type ApiAlert, type RunLog } from './run-log.js';
import { pumpFields, type Scenario } from './scenarios.js';
import { SECOND_CONTROLLER_OFFSET_SECONDS, tankSession } from './session.js';
import { type DeviceIds, setupTank } from './setup.js';

export const DEFAULT_URL = 'http://127.0.0.1:8000';

export interface LiveRunOptions {
  url: string;
  token?: string;
  prototypeId: number;
  scenario: Scenario;
  ids?: Partial<DeviceIds>;
  /** Seconds between readings (real time). */
  readingEverySeconds: number;
  /** Seconds between the controller's polls (real time). */
  pollEverySeconds: number;
  /** Tank seconds per real second. */
  speed: number;
  /** Stops after this many hours of tank time; runs until `signal` otherwise. */
  hours?: number;
  seed?: number;
  signal?: AbortSignal;
  out: (line: string) => void;
}

export async function runLive(options: LiveRunOptions): Promise<RunLog> {
  const api = httpApi(options.url, options.token);
  const { scenario, prototypeId } = options;
  options.out(`sensorhub simulate: ${scenario.name} (${scenario.summary}) against ${options.url}, prototype ${prototypeId}`);
  const ids = await setupTank(api, { prototypeId, ids: options.ids, pump: pumpFields(scenario), note: options.out });
  options.out(
    `sensors: ph ${ids.ph}, ec ${ids.ec}, temperature ${ids.temperature}, water_level ${ids.water_level}; acid pump ${ids.acid_pump}` +
      ` · a reading every ${options.readingEverySeconds} s${options.speed === 1 ? '' : `, tank time ×${options.speed}`}`,
  );
  const session = tankSession({
    api: () => api,
    ids,
    scenario,
    seed: options.seed ?? Date.now(),
    now: Date.now,
    readingEverySeconds: options.readingEverySeconds,
    pollEverySeconds: options.pollEverySeconds,
    speed: options.speed,
    note: options.out,
  });
  const startMs = session.log.startMs;
  const endMs = options.hours === undefined ? Infinity : startMs + (options.hours * 3600_000) / options.speed;
  // Two controllers poll a second apart: tick by the second so each polls on time.
  const tickMs = scenario.faults.includes('two-controllers')
    ? SECOND_CONTROLLER_OFFSET_SECONDS * 1000
    : Math.min(options.readingEverySeconds, options.pollEverySeconds) * 1000;
  for (let next = startMs; !options.signal?.aborted; next += tickMs) {
    await session.step();
    if (next + tickMs > endMs) break;
    const wait = next + tickMs - Date.now();
    if (wait > 0) await sleep(wait, undefined, { signal: options.signal }).catch(() => {});
  }
  const alerts = await api('GET', `/alerts?state=all&prototype_id=${prototypeId}&limit=1000`);
  if (alerts.status === 200) session.log.alerts = alertsFromApi(alerts.body as ApiAlert[]);
  else options.out(new ApiError('list the alerts', alerts).message);
  return session.log;
}
