import { hostname } from 'node:os';
import { parseDuration } from '../domain/duration.js';
import { type MqttSettings, MqttSettingError, mqttSettings } from './mqtt.js';
import { type NotificationSettings, notificationSettings } from './notifications.js';
import type { OpenStoreOptions } from '../store/index.js';

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
  /** How long after its password a session may be kept alive by /token/refresh (days). */
  sessionMaxDays: number;
  staleAfterMs: number;
  /** How long after a claimed run ends other reads still answer `claimed`, and its report may still come (ms). */
  claimGraceMs: number;
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
  /** PostgreSQL only: where the relay between instances listens, past a pooler in transaction mode (undefined: DATABASE_URL). */
  databaseListenUrl: string | undefined;
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
  /** Live event streams open at most (at most half of `httpMaxConnections`: the rest of the API keeps room). */
  eventsMaxStreams: number;
  /** Live event streams one client may hold open: per token in enforced mode, per remote address otherwise. */
  eventsMaxStreamsPerClient: number;
  /** Where timelapse frames, metadata and videos are kept. */
  timelapseDir: string;
  /** The most frames one timelapse may plan (bounds its disk use). */
  timelapseMaxFrames: number;
  /** The most bytes all timelapses together may keep under timelapseDir (0: no bound). */
  timelapseMaxBytes: number;
  /** The ffmpeg program that assembles timelapse videos. */
  ffmpegPath: string;
  /** How long a sensor must stay back at ok before its low/high alert clears, and short of critical before a critical one de-escalates. */
  alertClearAfterMs: number;
  /** Where alert events are POSTed (none: no webhooks). */
  alertWebhookUrls: string[];
  /** How long an undelivered alert notification is retried. */
  alertWebhookRetryForMs: number;
  /** Where checked backups of the store are written (undefined: no backups). */
  backupDir: string | undefined;
  /** How often a backup is made. */
  backupEveryMs: number;
  /** How many good backups are kept (the oldest beyond are deleted). */
  backupKeep: number;
  /** The MQTT bridge (§12); undefined when `MQTT_URL` is unset. */
  mqtt: MqttSettings | undefined;
  /** Notification channels' settings: SMTP, the far ends' APIs, repeats, escalation, links. */
  notifications: NotificationSettings;
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
/** 2 GiB: a few long timelapses of a small camera, a fraction of a Raspberry Pi's SD card. */
export const DEFAULT_TIMELAPSE_MAX_BYTES = 2 * 1024 ** 3;

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

const BYTE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** A size in bytes, or with a binary unit: 500M, 2G, 1.5GiB (K, M, G, T are powers of 1024). */
function byteSize(env: Env, name: string, fallback: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const match = /^(\d{1,16}(?:\.\d{1,6})?)\s*([kmgt]?)(?:i?b)?$/i.exec(raw);
  const bytes = match ? Math.floor(Number(match[1]) * BYTE_UNITS[match[2].toLowerCase()]) : NaN;
  if (!Number.isSafeInteger(bytes))
    throw new ConfigError(name, `expected a size in bytes like 2147483648 or 2G (0: no limit), got "${raw}"`);
  return bytes;
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

function listenUrl(env: Env): string | undefined {
  const raw = text(env, 'DATABASE_LISTEN_URL');
  if (raw === undefined || /^postgres(ql)?:\/\/.+/.test(raw)) return raw;
  throw new ConfigError('DATABASE_LISTEN_URL', `expected postgres://…, got "${raw}"`);
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

/** BACKUP_EVERY: a positive duration (a backup every 0 s would never rest). */
function backupEvery(env: Env): number {
  const ms = duration(env, 'BACKUP_EVERY', 24 * 3_600_000, 'PT24H or 86400');
  if (ms < 60_000) throw new ConfigError('BACKUP_EVERY', `expected at least one minute (PT1M), got "${text(env, 'BACKUP_EVERY')}"`);
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

/** The default bound of open event streams; never more than the share of connections below. */
export const DEFAULT_EVENTS_MAX_STREAMS = 256;
export const DEFAULT_EVENTS_MAX_STREAMS_PER_CLIENT = 32;

/**
 * EVENTS_MAX_STREAMS*: a stream holds its connection for as long as it is open, so streams may
 * take at most half of HTTP_MAX_CONNECTIONS — the other half is always left to the rest of the
 * API (ingest, /healthz, the dashboard's reads). Unset, the bound is the default or that half,
 * whichever is lower.
 */
function eventStreamBounds(env: Env, httpMaxConnections: number): Pick<Config, 'eventsMaxStreams' | 'eventsMaxStreamsPerClient'> {
  const half = Math.floor(httpMaxConnections / 2);
  const eventsMaxStreams = integer(env, 'EVENTS_MAX_STREAMS', Math.min(DEFAULT_EVENTS_MAX_STREAMS, half), 0, 1_000_000);
  if (eventsMaxStreams > half) {
    throw new ConfigError(
      'EVENTS_MAX_STREAMS',
      `must leave at least half of HTTP_MAX_CONNECTIONS (${httpMaxConnections}) to the rest of the API: at most ${half}, got ${eventsMaxStreams}`,
    );
  }
  const eventsMaxStreamsPerClient = integer(env, 'EVENTS_MAX_STREAMS_PER_CLIENT', DEFAULT_EVENTS_MAX_STREAMS_PER_CLIENT, 1, 1_000_000);
  return { eventsMaxStreams, eventsMaxStreamsPerClient };
}

/** MQTT_*: one instance keeps its client id from start to start (host and port) unless one is given. */
function mqtt(env: Env, port: number, authMode: AuthMode): MqttSettings | undefined {
  const flag = (name: string) => (text(env, name) === undefined ? undefined : boolean(env, name, false));
  try {
    return mqttSettings(
      {
        MQTT_URL: text(env, 'MQTT_URL'),
        MQTT_TOPIC_PREFIX: text(env, 'MQTT_TOPIC_PREFIX'),
        MQTT_CLIENT_ID: text(env, 'MQTT_CLIENT_ID'),
        MQTT_HA_DISCOVERY: flag('MQTT_HA_DISCOVERY'),
        MQTT_HA_DISCOVERY_PREFIX: text(env, 'MQTT_HA_DISCOVERY_PREFIX'),
        MQTT_TRUST_BROKER: flag('MQTT_TRUST_BROKER'),
        AUTH_MODE: authMode,
      },
      `sensorhub-${hostname()}-${port}`,
    );
  } catch (error) {
    if (error instanceof MqttSettingError) throw new ConfigError(error.variable, error.message);
    throw error;
  }
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8000, 0, 65535);
  const httpMaxConnections = integer(env, 'HTTP_MAX_CONNECTIONS', 512, 1, 1_000_000);
  const authMode = oneOf(env, 'AUTH_MODE', 'open', ['open', 'enforced'] as const);
  return {
    port,
    host: text(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: databaseUrl(env),
    corsOrigins: corsOrigins(env),
    authMode,
    tokenSecret: tokenSecret(env),
    tokenTtlMinutes: integer(env, 'TOKEN_TTL_MINUTES', 60, 1, 10 * 365 * 24 * 60),
    sessionMaxDays: integer(env, 'SESSION_MAX_DAYS', 30, 1, 3650),
    staleAfterMs: staleAfter(env),
    claimGraceMs: duration(env, 'CLAIM_GRACE', 30_000, 'PT30S or 30'),
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
    databaseListenUrl: listenUrl(env),
    retentionRawMs: retention(env, 'RETENTION_RAW'),
    retentionFiveMinuteMs: retention(env, 'RETENTION_5M'),
    ...httpTimeouts(env),
    httpMaxConnections,
    ...eventStreamBounds(env, httpMaxConnections),
    timelapseDir: text(env, 'TIMELAPSE_DIR') ?? './data/timelapses',
    timelapseMaxFrames: integer(env, 'TIMELAPSE_MAX_FRAMES', 100_000, 1, MAX_TIMELAPSE_FRAMES),
    timelapseMaxBytes: byteSize(env, 'TIMELAPSE_MAX_BYTES', DEFAULT_TIMELAPSE_MAX_BYTES),
    ffmpegPath: text(env, 'FFMPEG_PATH') ?? 'ffmpeg',
    alertClearAfterMs: duration(env, 'ALERT_CLEAR_AFTER', 60_000, 'PT1M or 60'),
    alertWebhookUrls: webhookUrls(env),
    alertWebhookRetryForMs: duration(env, 'ALERT_WEBHOOK_RETRY_FOR', 24 * 3_600_000, 'PT24H or 86400'),
    backupDir: text(env, 'BACKUP_DIR'),
    backupEveryMs: backupEvery(env),
    backupKeep: integer(env, 'BACKUP_KEEP', 7, 1, 10_000),
    mqtt: mqtt(env, port, authMode),
    notifications: notificationSettings(env, (variable, message) => {
      throw new ConfigError(variable, message);
    }),
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
    listenUrl: config.databaseListenUrl,
  };
}
