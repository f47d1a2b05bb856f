import { parseDuration } from '../domain/duration.js';

/** The notification settings, from the environment (docs/operations.md, "Notifications"). */
export interface NotificationSettings {
  /** SMTP_URL: smtp://[user:pass@]host[:port] or smtps://…; undefined: email channels cannot send. */
  smtpUrl: string | undefined;
  /** SMTP_FROM. */
  smtpFrom: string;
  /** TELEGRAM_API_URL: the Bot API's base (a test or a local Bot API server points elsewhere). */
  telegramApiUrl: string;
  /** PUSHOVER_API_URL. */
  pushoverApiUrl: string;
  /** PUBLIC_URL: what acknowledge links start with; undefined: http://HOST:PORT. */
  publicUrl: string | undefined;
  /** NOTIFY_REPEAT: waits between the messages of an unanswered critical alert, the last repeating. */
  repeatWaits: number[];
  /** NOTIFY_ESCALATE_AFTER. */
  escalateAfterMs: number;
  /** NOTIFY_FAILING_AFTER: a channel failing this long is reported on the others. */
  failingAfterMs: number;
  /** NOTIFY_LINK_TTL: how long an acknowledge link works. */
  linkTtlMs: number;
  /** NOTIFY_TIME_ZONE: the zone quiet hours are read in (IANA name); default the system's. */
  timeZone: string;
}

type Env = Record<string, string | undefined>;
type Fail = (variable: string, message: string) => never;

const text = (env: Env, name: string) => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

function durationOf(env: Env, name: string, fallback: number, fail: Fail): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const ms = parseDuration(raw);
  if (ms === undefined || ms <= 0) fail(name, `expected a positive duration like PT30M or 1800, got "${raw}"`);
  return ms as number;
}

function httpUrl(env: Env, name: string, fallback: string | undefined, fail: Fail): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) fail(name, `"${raw}" is not an http:// or https:// URL`);
  return raw.replace(/\/+$/, '');
}

export function notificationSettings(env: Env, fail: Fail): NotificationSettings {
  const smtpUrl = text(env, 'SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/\s]+\/?$/.test(smtpUrl)) {
    fail('SMTP_URL', 'expected smtp://[user:pass@]host[:port] or smtps://[user:pass@]host[:port]');
  }
  const repeatRaw = text(env, 'NOTIFY_REPEAT') ?? 'PT5M,PT15M,PT1H';
  const repeatWaits = repeatRaw.split(',').map((part) => {
    const ms = parseDuration(part.trim());
    if (ms === undefined || ms < 1000)
      fail('NOTIFY_REPEAT', `expected durations of at least a second like PT5M,PT15M,PT1H, got "${repeatRaw}"`);
    return ms as number;
  });
  const timeZone = text(env, 'NOTIFY_TIME_ZONE') ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    fail('NOTIFY_TIME_ZONE', `"${timeZone}" is not a time zone like Europe/Berlin`);
  }
  return {
    smtpUrl,
    smtpFrom: text(env, 'SMTP_FROM') ?? 'sensorhub <sensorhub@localhost>',
    telegramApiUrl: httpUrl(env, 'TELEGRAM_API_URL', 'https://api.telegram.org', fail) as string,
    pushoverApiUrl: httpUrl(env, 'PUSHOVER_API_URL', 'https://api.pushover.net', fail) as string,
    publicUrl: httpUrl(env, 'PUBLIC_URL', undefined, fail),
    repeatWaits,
    escalateAfterMs: durationOf(env, 'NOTIFY_ESCALATE_AFTER', 30 * 60_000, fail),
    failingAfterMs: durationOf(env, 'NOTIFY_FAILING_AFTER', 3_600_000, fail),
    linkTtlMs: durationOf(env, 'NOTIFY_LINK_TTL', 7 * 24 * 3_600_000, fail),
    timeZone,
  };
}
