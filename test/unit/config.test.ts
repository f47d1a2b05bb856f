import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 8000,
      host: '0.0.0.0',
      databaseUrl: 'sqlite:./data/sensorhub.db',
      corsOrigins: '*',
      authMode: 'open',
      tokenSecret: undefined,
      tokenTtlMinutes: 60,
      sessionMaxDays: 30,
      staleAfterMs: 24 * 3600 * 1000,
      claimGraceMs: 30_000,
      pictureSource: undefined,
      pictureTimeoutMs: 5000,
      pictureCacheMs: 2000,
      seedDefaults: true,
      bodyLimitBytes: 1024 * 1024,
      logLevel: 'info',
      databasePoolSize: 10,
      databaseConnectTimeoutMs: 5000,
      databaseStatementTimeoutMs: 60_000,
      sqliteSynchronous: 'normal',
      httpHeadersTimeoutMs: 10_000,
      httpRequestTimeoutMs: 30_000,
      httpIdleTimeoutMs: 120_000,
      httpMaxConnections: 512,
      eventsMaxStreams: 256,
      eventsMaxStreamsPerClient: 32,
      timelapseDir: './data/timelapses',
      timelapseMaxFrames: 100_000,
      timelapseMaxBytes: 2 * 1024 ** 3,
      ffmpegPath: 'ffmpeg',
      alertClearAfterMs: 60_000,
      alertWebhookUrls: [],
      alertWebhookRetryForMs: 24 * 3600 * 1000,
      backupDir: undefined,
      backupEveryMs: 24 * 3600 * 1000,
      backupKeep: 7,
      notifications: {
        smtpUrl: undefined,
        smtpFrom: 'sensorhub <sensorhub@localhost>',
        telegramApiUrl: 'https://api.telegram.org',
        pushoverApiUrl: 'https://api.pushover.net',
        publicUrl: undefined,
        repeatWaits: [5 * 60_000, 15 * 60_000, 3_600_000],
        escalateAfterMs: 30 * 60_000,
        failingAfterMs: 3_600_000,
        linkTtlMs: 7 * 24 * 3_600_000,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
    });
  });

  it('reads the notification settings and refuses bad ones naming the variable', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://u:p@mail.example:465',
      NOTIFY_REPEAT: 'PT1M, PT2M',
      NOTIFY_ESCALATE_AFTER: '600',
      PUBLIC_URL: 'https://hub.example/',
      NOTIFY_TIME_ZONE: 'Europe/Berlin',
    });
    expect(config.notifications).toMatchObject({
      smtpUrl: 'smtps://u:p@mail.example:465',
      repeatWaits: [60_000, 120_000],
      escalateAfterMs: 600_000,
      publicUrl: 'https://hub.example',
      timeZone: 'Europe/Berlin',
    });
    for (const [name, value] of [
      ['SMTP_URL', 'http://mail'],
      ['NOTIFY_REPEAT', 'PT5M,soon'],
      ['NOTIFY_ESCALATE_AFTER', '0'],
      ['PUBLIC_URL', 'hub.example'],
      ['TELEGRAM_API_URL', 'ftp://x'],
      ['NOTIFY_TIME_ZONE', 'Mars/Base'],
    ]) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(name);
    }
  });

  it('reads the alert settings: durations in any accepted form, webhook URLs comma-separated, duplicates once', () => {
    const config = loadConfig({
      ALERT_CLEAR_AFTER: 'PT5M',
      ALERT_WEBHOOK_URLS: ' http://hooks.local/a , https://example.com/hook,http://hooks.local/a',
      ALERT_WEBHOOK_RETRY_FOR: '3600',
    });
    expect(config.alertClearAfterMs).toBe(300_000);
    expect(config.alertWebhookUrls).toEqual(['http://hooks.local/a', 'https://example.com/hook']);
    expect(config.alertWebhookRetryForMs).toBe(3_600_000);
    expect(loadConfig({ ALERT_CLEAR_AFTER: '0' }).alertClearAfterMs).toBe(0);
  });

  it('reads the HTTP limits', () => {
    expect(
      loadConfig({
        HTTP_HEADERS_TIMEOUT_MS: '2000',
        HTTP_REQUEST_TIMEOUT_MS: '5000',
        HTTP_IDLE_TIMEOUT_MS: '9000',
        HTTP_MAX_CONNECTIONS: '64',
      }),
    ).toMatchObject({ httpHeadersTimeoutMs: 2000, httpRequestTimeoutMs: 5000, httpIdleTimeoutMs: 9000, httpMaxConnections: 64 });
  });

  it('bounds the event streams to at most half the connections, so the rest of the API keeps room', () => {
    expect(loadConfig({ EVENTS_MAX_STREAMS: '5', EVENTS_MAX_STREAMS_PER_CLIENT: '3' })).toMatchObject({
      eventsMaxStreams: 5,
      eventsMaxStreamsPerClient: 3,
    });
    // Unset, the bound follows a lower connection limit down; set, it may take up to half of it.
    expect(loadConfig({ HTTP_MAX_CONNECTIONS: '100' }).eventsMaxStreams).toBe(50);
    expect(loadConfig({ HTTP_MAX_CONNECTIONS: '4000', EVENTS_MAX_STREAMS: '2000' }).eventsMaxStreams).toBe(2000);
    expect(loadConfig({ HTTP_MAX_CONNECTIONS: '4000' }).eventsMaxStreams).toBe(256);
    expect(loadConfig({ EVENTS_MAX_STREAMS: '0' }).eventsMaxStreams).toBe(0);
    expect(() => loadConfig({ EVENTS_MAX_STREAMS: '257' })).toThrow(
      'EVENTS_MAX_STREAMS: must leave at least half of HTTP_MAX_CONNECTIONS (512) to the rest of the API: at most 256, got 257',
    );
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS: '100', EVENTS_MAX_STREAMS: '51' })).toThrow(/^EVENTS_MAX_STREAMS: .*at most 50/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u@db/sensorhub',
      CORS_ORIGINS: 'http://a.example, https://b.example:8443',
      AUTH_MODE: 'enforced',
      TOKEN_SECRET: 's'.repeat(40),
      TOKEN_TTL_MINUTES: '15',
      SESSION_MAX_DAYS: '7',
      STALE_AFTER: 'PT2H',
      PICTURE_SOURCE: 'http://cam.local/capture',
      PICTURE_TIMEOUT_MS: '1500',
      PICTURE_CACHE_MS: '0',
      SEED_DEFAULTS: 'false',
      BODY_LIMIT_BYTES: '4096',
      LOG_LEVEL: 'warn',
      TIMELAPSE_DIR: '/var/lib/sensorhub/timelapses',
      TIMELAPSE_MAX_FRAMES: '500',
      TIMELAPSE_MAX_BYTES: '1048576',
      FFMPEG_PATH: '/usr/local/bin/ffmpeg',
    });
    expect(config).toMatchObject({
      timelapseDir: '/var/lib/sensorhub/timelapses',
      timelapseMaxFrames: 500,
      timelapseMaxBytes: 1_048_576,
      ffmpegPath: '/usr/local/bin/ffmpeg',
      port: 9000,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@db/sensorhub',
      corsOrigins: ['http://a.example', 'https://b.example:8443'],
      authMode: 'enforced',
      tokenTtlMinutes: 15,
      sessionMaxDays: 7,
      staleAfterMs: 2 * 3600 * 1000,
      pictureSource: 'http://cam.local/capture',
      pictureTimeoutMs: 1500,
      pictureCacheMs: 0,
      seedDefaults: false,
      bodyLimitBytes: 4096,
      logLevel: 'warn',
    });
  });

  it('reads TIMELAPSE_MAX_BYTES in bytes or with a binary unit; 0 is no limit', () => {
    const bytes = (value: string) => loadConfig({ TIMELAPSE_MAX_BYTES: value }).timelapseMaxBytes;
    expect(bytes('0')).toBe(0);
    expect(bytes('123456')).toBe(123_456);
    expect(bytes('500K')).toBe(500 * 1024);
    expect(bytes('500M')).toBe(500 * 1024 ** 2);
    expect(bytes('2g')).toBe(2 * 1024 ** 3);
    expect(bytes('1.5GiB')).toBe(1.5 * 1024 ** 3);
    expect(bytes('1 TB')).toBe(1024 ** 4);
    expect(bytes(' ')).toBe(2 * 1024 ** 3);
  });

  it('accepts STALE_AFTER in seconds and in the Python form', () => {
    expect(loadConfig({ STALE_AFTER: '600' }).staleAfterMs).toBe(600_000);
    expect(loadConfig({ STALE_AFTER: '1 day, 00:00:00' }).staleAfterMs).toBe(86_400_000);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://db'],
    ['CORS_ORIGINS', 'dashboard.local'],
    ['AUTH_MODE', 'sometimes'],
    ['TOKEN_SECRET', 'short'],
    ['TOKEN_TTL_MINUTES', '0'],
    ['SESSION_MAX_DAYS', '0'],
    ['SESSION_MAX_DAYS', '3651'],
    ['SESSION_MAX_DAYS', 'a month'],
    ['STALE_AFTER', 'tomorrow'],
    ['STALE_AFTER', '-PT1H'],
    ['PICTURE_SOURCE', 'ftp://cam'],
    ['PICTURE_TIMEOUT_MS', '-5'],
    ['SEED_DEFAULTS', 'maybe'],
    ['BODY_LIMIT_BYTES', '1MB'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_CONNECT_TIMEOUT_MS', 'soon'],
    ['SQLITE_SYNCHRONOUS', 'sometimes'],
    ['HTTP_HEADERS_TIMEOUT_MS', '10s'],
    ['HTTP_HEADERS_TIMEOUT_MS', '60000'],
    ['HTTP_REQUEST_TIMEOUT_MS', '0'],
    ['HTTP_IDLE_TIMEOUT_MS', '-1'],
    ['HTTP_MAX_CONNECTIONS', '0'],
    ['HTTP_MAX_CONNECTIONS', 'many'],
    ['EVENTS_MAX_STREAMS', 'many'],
    ['EVENTS_MAX_STREAMS', '-1'],
    ['EVENTS_MAX_STREAMS', '300'],
    ['EVENTS_MAX_STREAMS_PER_CLIENT', '0'],
    ['EVENTS_MAX_STREAMS_PER_CLIENT', '3.5'],
    ['TIMELAPSE_MAX_FRAMES', '0'],
    ['TIMELAPSE_MAX_FRAMES', 'lots'],
    ['TIMELAPSE_MAX_FRAMES', '1000001'],
    ['TIMELAPSE_MAX_BYTES', 'plenty'],
    ['TIMELAPSE_MAX_BYTES', '-1'],
    ['TIMELAPSE_MAX_BYTES', '2 PB'],
    ['TIMELAPSE_MAX_BYTES', '1e9'],
    ['TIMELAPSE_MAX_BYTES', '99999999999999999'],
    ['ALERT_CLEAR_AFTER', 'a minute'],
    ['ALERT_CLEAR_AFTER', '-PT1M'],
    ['ALERT_WEBHOOK_URLS', 'ftp://hooks.local/a'],
    ['ALERT_WEBHOOK_URLS', 'http://ok.local,not a url'],
    ['ALERT_WEBHOOK_RETRY_FOR', 'forever'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(name);
    expect((error as ConfigError).message).toContain(name);
  });
});

describe('backup settings', () => {
  it('are off by default, with a day between backups and seven kept', () => {
    const config = loadConfig({});
    expect(config.backupDir).toBeUndefined();
    expect(config.backupEveryMs).toBe(24 * 3_600_000);
    expect(config.backupKeep).toBe(7);
  });

  it('take a folder, a duration and a count', () => {
    const config = loadConfig({ BACKUP_DIR: '/var/backups/sensorhub', BACKUP_EVERY: 'PT6H', BACKUP_KEEP: '30' });
    expect(config).toMatchObject({ backupDir: '/var/backups/sensorhub', backupEveryMs: 6 * 3_600_000, backupKeep: 30 });
    expect(loadConfig({ BACKUP_EVERY: '3600' }).backupEveryMs).toBe(3_600_000);
  });

  it.each([
    ['BACKUP_EVERY', 'daily'],
    ['BACKUP_EVERY', '0'],
    ['BACKUP_EVERY', 'PT30S'],
    ['BACKUP_KEEP', '0'],
    ['BACKUP_KEEP', 'seven'],
    ['BACKUP_KEEP', '-1'],
  ])('refuses %s=%s, naming the variable', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(`^${variable}: `));
  });
});
