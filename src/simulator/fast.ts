/**
 * A fast run: the real service in this process, on a fresh SQLite file in a temporary folder,
 * on a simulated clock. The service's clock and its alarms (alerts, decision changes) follow the
 * simulated one, and requests go straight to the app (`inject`), so a day takes seconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Config, loadConfig, storeOptions } from '../config/index.js';
import type { Timers } from '../core/timers.js';
import { openStore, type Store } from '../store/index.js';
import { type Api, expectOk } from './api.js';
import { alertsFromApi, type ApiAlert, type RunLog } from './run-log.js';
import { pumpFields, type Scenario } from './scenarios.js';
import { SECOND_CONTROLLER_OFFSET_SECONDS, tankSession } from './session.js';
import { setupTank } from './setup.js';
import { simulatedClock } from './simulated-clock.js';
import type { TankParams } from './tank.js';

/** What a fast run needs of the service's `buildApp` (src/app.ts), which sits above this folder. */
export type AppBuilder = (
  config: Config,
  store: Store,
  options: { now: () => number; logger: false; liveEvents: { timers: Timers }; alerts: { timers: Timers } },
) => Promise<FastifyInstance & { alertsSettled(): Promise<void> }>;

export interface FastRunOptions {
  buildApp: AppBuilder;
  scenario: Scenario;
  hours: number;
  seed?: number;
  /** Where the simulated day starts (epoch ms); a fixed instant keeps the scorecard the same run to run. */
  startMs?: number;
  readingEverySeconds?: number;
  pollEverySeconds?: number;
  prototypeId?: number;
  /** The tank's parameters over the scenario's (another tank size, another noise). */
  tank?: Partial<TankParams>;
  /** Told of each reading, run and decision change (quiet by default). */
  note?: (line: string) => void;
  /** Called with the API before the service closes (tests read back what was stored). */
  inspect?: (api: Api, ids: Awaited<ReturnType<typeof setupTank>>) => Promise<void>;
}

export const FAST_START_MS = Date.UTC(2026, 0, 1, 6, 0, 0);

/** The app's answers to requests handed to it directly (no socket). */
export function injectApi(app: FastifyInstance): Api {
  return async (method, path, body) => {
    const reply = await app.inject({ method: method as 'GET', url: path, payload: body as object | undefined });
    const json = (reply.headers['content-type'] ?? '').toString().includes('json') && reply.body !== '';
    return { status: reply.statusCode, body: json ? reply.json() : reply.body };
  };
}

export async function runFast(options: FastRunOptions): Promise<RunLog> {
  const { scenario } = options;
  const startMs = options.startMs ?? FAST_START_MS;
  const readingEvery = options.readingEverySeconds ?? 60;
  const pollEvery = options.pollEverySeconds ?? 10;
  const prototypeId = options.prototypeId ?? 1;
  const dir = mkdtempSync(join(tmpdir(), 'sensorhub-simulate-'));
  const clock = simulatedClock(startMs);
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'sensorhub.db')}`,
    LOG_LEVEL: 'silent',
    SEED_DEFAULTS: 'false',
    TIMELAPSE_DIR: join(dir, 'timelapses'),
  });
  const store = await openStore(config.databaseUrl, storeOptions(config));
  const build = () =>
    options.buildApp(config, store, {
      now: clock.now,
      logger: false,
      liveEvents: { timers: clock.timers },
      alerts: { timers: clock.timers },
    });
  let app = await build();
  try {
    await app.ready();
    const api = () => injectApi(app);
    const ids = await setupTank(api(), { prototypeId, prototypeName: `Simulated tank (${scenario.name})`, pump: pumpFields(scenario) });
    const session = tankSession({
      api,
      ids,
      scenario,
      seed: options.seed ?? 1,
      now: clock.now,
      readingEverySeconds: readingEvery,
      pollEverySeconds: pollEvery,
      note: options.note,
      tank: options.tank,
    });
    const endMs = startMs + options.hours * 3600_000;
    // Two controllers poll a second apart: the run steps by the second to let each poll on time.
    const stepMs = scenario.faults.includes('two-controllers')
      ? SECOND_CONTROLLER_OFFSET_SECONDS * 1000
      : Math.min(readingEvery, pollEvery) * 1000;
    const restartAt = scenario.faults.includes('restart') ? startMs + (endMs - startMs) / 2 : undefined;
    for (let at = startMs; at <= endMs; at += stepMs) {
      clock.advanceTo(at);
      await app.alertsSettled();
      if (restartAt !== undefined && session.log.restartedAt === null && at >= restartAt) {
        // A restart: the process goes, a new one opens the same store.
        await app.close();
        app = await build();
        await app.ready();
        session.log.restartedAt = at;
        options.note?.('service restarted');
      }
      await session.step();
      await app.alertsSettled();
    }
    const alerts = await expectOk<ApiAlert[]>('list the alerts', api()('GET', `/alerts?state=all&prototype_id=${prototypeId}&limit=1000`));
    session.log.alerts = alertsFromApi(alerts);
    await options.inspect?.(api(), ids);
    return session.log;
  } finally {
    await app.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
