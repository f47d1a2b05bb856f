import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from '../../src/app.js';
import { type Config, loadConfig, storeOptions } from '../../src/config/index.js';
import type { ChangeBus } from '../../src/core/bus.js';
import type { StoreKind } from '../../src/store/dialect.js';
import { openStore, type Store } from '../../src/store/index.js';
import { listenEnv, type ScratchDatabase, scratchDatabase } from './stores.js';

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestService {
  kind: StoreKind;
  url: string;
  config: Config;
  store: Store;
  app: FastifyInstance;
  database: ScratchDatabase;
  /** The test clock: `clock.now` is what the service takes as the time; set it, or leave it following Date.now. */
  clock: { now: number | undefined };
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Reply<T>>;
  get<T = any>(path: string, options?: RequestOptions): Promise<Reply<T>>;
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<Reply<T>>;
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<Reply<T>>;
  put<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<Reply<T>>;
  /** Stops the server and drops the database. */
  close(): Promise<void>;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Sent as-is (a string or bytes); otherwise `body` is sent as JSON. */
  raw?: string | Uint8Array;
  token?: string;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse a database (for restart tests); by default a fresh one is made and dropped on close. */
  database?: ScratchDatabase;
  /** The bus the services publish committed changes to (tests listen on it). */
  bus?: ChangeBus;
  /** Further options of the app (timers and limits of the live events). */
  app?: Pick<AppOptions, 'liveEvents' | 'logger' | 'alerts' | 'backup'>;
  /** The test clock's time from the first moment the service runs (its start-up work included). */
  now?: number;
}

/** The service over a real port on loopback, on a fresh SQLite file or PostgreSQL database. */
export async function startService(kind: StoreKind, options: StartOptions = {}): Promise<TestService> {
  const database = options.database ?? (await scratchDatabase(kind));
  // Timelapses go to a folder of the test's own (made only when a timelapse starts), never ./data.
  const timelapseDir = join(tmpdir(), `sensorhub-timelapses-${randomBytes(6).toString('hex')}`);
  const config = loadConfig({
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    TIMELAPSE_DIR: timelapseDir,
    ...listenEnv(database.url),
    ...options.env,
  });
  const store = await openStore(config.databaseUrl, storeOptions(config));
  const clock: { now: number | undefined } = { now: options.now };
  const app = await buildApp(config, store, { now: () => clock.now ?? Date.now(), logger: false, bus: options.bus, ...options.app });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  async function request<T>(method: string, path: string, opts: RequestOptions & { json?: unknown } = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | Uint8Array | undefined = opts.raw;
    if (body === undefined && opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const response = await fetch(url + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  return {
    kind,
    url,
    config,
    store,
    app,
    database,
    clock,
    request: (method, path, opts) => request(method, path, opts),
    get: (path, opts) => request('GET', path, opts),
    post: (path, json, opts) => request('POST', path, { ...opts, json }),
    patch: (path, json, opts) => request('PATCH', path, { ...opts, json }),
    put: (path, json, opts) => request('PUT', path, { ...opts, json }),
    async close() {
      await app.close();
      await store.close();
      if (!options.database) await database.drop();
      if (!options.env?.TIMELAPSE_DIR) rmSync(timelapseDir, { recursive: true, force: true });
    },
  };
}
