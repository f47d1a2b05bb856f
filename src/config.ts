import { parseDuration } from './domain/duration.js';
import type { OpenStoreOptions } from './store/index.js';

export type AuthMode = 'open' | 'enforced';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  corsOrigins: '*' | string[];
  authMode: AuthMode;
  tokenSecret: string | undefined;
  tokenTtlMinutes: number;
  staleAfterMs: number;
  pictureSource: string | undefined;
  pictureTimeoutMs: number;
  pictureCacheMs: number;
  seedDefaults: boolean;
  bodyLimitBytes: number;
  logLevel: LogLevel;
  /** PostgreSQL only: connections per process. */
  databasePoolSize: number;
  /** PostgreSQL only: how long to wait for a connection before answering 503. */
  databaseConnectTimeoutMs: number;
  /** PostgreSQL only: the longest a statement may run (server and client side). */
  databaseStatementTimeoutMs: number;
  /** SQLite only: NORMAL (a power cut may lose the last commits) or FULL (fsync at every commit). */
  sqliteSynchronous: 'normal' | 'full';
  /** Raw measurements older than this are retired (undefined: kept forever). */
  retentionRawMs: number | undefined;
  /** 5-minute history buckets older than this are retired (undefined: kept forever). */
  retentionFiveMinuteMs: number | undefined;
  /** The longest a client may take to send a request's headers (408 and closed beyond). */
  httpHeadersTimeoutMs: number;
  /** The longest a client may take to send a whole request, body included; the response is not limited. */
  httpRequestTimeoutMs: number;
  /** A connection on which nothing moves either way for this long is closed (also mid-response). */
  httpIdleTimeoutMs: number;
  /** Open connections at most; beyond it new ones are closed at once. */
  httpMaxConnections: number;
  /** Where timelapse frames, metadata and videos are kept. */
  timelapseDir: string;
  /** The most frames one timelapse may plan (bounds its disk use). */
  timelapseMaxFrames: number;
  /** The ffmpeg program that assembles timelapse videos. */
  ffmpegPath: string;
  /** How long a sensor must stay back at ok before its low/high alert clears. */
  alertClearAfterMs: number;
  /** Where alert events are POSTed (none: no webhooks). */
  alertWebhookUrls: string[];
  /** How long an undelivered alert notification is retried. */
  alertWebhookRetryForMs: number;
}

/** A bad configuration value: the message names the variable, so the operator knows what to fix. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** Frame files are numbered with six digits. */
export const MAX_TIMELAPSE_FRAMES = 1_000_000;

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function databaseUrl(env: Env): string {
  const raw = text(env, 'DATABASE_URL') ?? 'sqlite:./data/sensorhub.db';
  if (/^sqlite:.+/.test(raw) || /^postgres(ql)?:\/\/.+/.test(raw)) return raw;
  throw new ConfigError('DATABASE_URL', `expected sqlite:<file> or postgres://…, got "${raw}"`);
}

function corsOrigins(env: Env): '*' | string[] {
  const raw = text(env, 'CORS_ORIGINS') ?? '*';
  if (raw === '*') return '*';
  const origins = raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError('CORS_ORIGINS', `"${origin}" is not an origin like https://dashboard.example:8080`);
    }
  }
  return origins;
}

function staleAfter(env: Env): number {
  const raw = text(env, 'STALE_AFTER');
  if (raw === undefined) return 24 * 60 * 60 * 1000;
  const ms = parseDuration(raw);
  if (ms === undefined) throw new ConfigError('STALE_AFTER', `expected a duration like PT24H or 86400, got "${raw}"`);
  return ms;
}

function retention(env: Env, name: string): number | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  const ms = parseDuration(raw);
  if (ms === undefined || ms <= 0) throw new ConfigError(name, `expected a positive duration like P365D or 31536000, got "${raw}"`);
  return ms;
}

/** A duration setting (ISO 8601, the dashboard's forms, or seconds) with a default. */
function duration(env: Env, name: string, fallbackMs: number, example: string): number {
  const raw = text(env, name);
  if (raw === undefined) return fallbackMs;
  const ms = parseDuration(raw);
  if (ms === undefined) throw new ConfigError(name, `expected a duration like ${example}, got "${raw}"`);
  return ms;
}

function webhookUrls(env: Env): string[] {
  const raw = text(env, 'ALERT_WEBHOOK_URLS');
  if (raw === undefined) return [];
  const urls = raw
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  for (const url of urls) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      throw new ConfigError('ALERT_WEBHOOK_URLS', `"${url}" is not an http:// or https:// URL`);
    }
  }
  return [...new Set(urls)];
}

function pictureSource(env: Env): string | undefined {
  const raw = text(env, 'PICTURE_SOURCE');
  if (raw === undefined) return undefined;
  if (/^(https?:\/\/.+|file:.+|exec:.+)$/.test(raw)) return raw;
  throw new ConfigError('PICTURE_SOURCE', `expected http(s)://…, file:<path> or exec:<command>, got "${raw}"`);
}

function tokenSecret(env: Env): string | undefined {
  const raw = text(env, 'TOKEN_SECRET');
  if (raw !== undefined && raw.length < 32) {
    throw new ConfigError('TOKEN_SECRET', 'must be at least 32 characters long');
  }
  return raw;
}

/** Node refuses a headers limit above the request limit: say so in the operator's terms. */
function httpTimeouts(env: Env): Pick<Config, 'httpHeadersTimeoutMs' | 'httpRequestTimeoutMs' | 'httpIdleTimeoutMs'> {
  const httpHeadersTimeoutMs = integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 3_600_000);
  const httpRequestTimeoutMs = integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  if (httpHeadersTimeoutMs > httpRequestTimeoutMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS', `must not exceed HTTP_REQUEST_TIMEOUT_MS (${httpRequestTimeoutMs})`);
  }
  const httpIdleTimeoutMs = integer(env, 'HTTP_IDLE_TIMEOUT_MS', 120_000, 1000, 24 * 3_600_000);
  return { httpHeadersTimeoutMs, httpRequestTimeoutMs, httpIdleTimeoutMs };
}

export function loadConfig(env: Env = process.env): Config {
  return {
    port: integer(env, 'PORT', 8000, 0, 65535),
    host: text(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: databaseUrl(env),
    corsOrigins: corsOrigins(env),
    authMode: oneOf(env, 'AUTH_MODE', 'open', ['open', 'enforced'] as const),
    tokenSecret: tokenSecret(env),
    tokenTtlMinutes: integer(env, 'TOKEN_TTL_MINUTES', 60, 1, 10 * 365 * 24 * 60),
    staleAfterMs: staleAfter(env),
    pictureSource: pictureSource(env),
    pictureTimeoutMs: integer(env, 'PICTURE_TIMEOUT_MS', 5000, 1, 600_000),
    pictureCacheMs: integer(env, 'PICTURE_CACHE_MS', 2000, 0, 3_600_000),
    seedDefaults: boolean(env, 'SEED_DEFAULTS', true),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 1024 * 1024 * 1024),
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseConnectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5000, 100, 600_000),
    databaseStatementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 60_000, 100, 24 * 3600_000),
    sqliteSynchronous: oneOf(env, 'SQLITE_SYNCHRONOUS', 'normal', ['normal', 'full'] as const),
    retentionRawMs: retention(env, 'RETENTION_RAW'),
    retentionFiveMinuteMs: retention(env, 'RETENTION_5M'),
    ...httpTimeouts(env),
    httpMaxConnections: integer(env, 'HTTP_MAX_CONNECTIONS', 512, 1, 1_000_000),
    timelapseDir: text(env, 'TIMELAPSE_DIR') ?? './data/timelapses',
    timelapseMaxFrames: integer(env, 'TIMELAPSE_MAX_FRAMES', 100_000, 1, MAX_TIMELAPSE_FRAMES),
    ffmpegPath: text(env, 'FFMPEG_PATH') ?? 'ffmpeg',
    alertClearAfterMs: duration(env, 'ALERT_CLEAR_AFTER', 60_000, 'PT1M or 60'),
    alertWebhookUrls: webhookUrls(env),
    alertWebhookRetryForMs: duration(env, 'ALERT_WEBHOOK_RETRY_FOR', 24 * 3_600_000, 'PT24H or 86400'),
  };
}

/** What the store takes from the configuration. */
export function storeOptions(config: Config): OpenStoreOptions {
  return {
    seedDefaults: config.seedDefaults,
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    sqliteSynchronous: config.sqliteSynchronous,
  };
}
