import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { dbOf, storeKinds } from '../helpers/stores.js';

const BOT_TOKEN = '123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345678';
const APP_TOKEN = 'a'.repeat(30);
const USER_KEY = 'u'.repeat(30);
const NTFY_TOKEN = 'tk_secretsecretsecret';

describe.each(storeKinds())('notification channels (%s)', (kind) => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });
  const start = async (env: Record<string, string> = {}) =>
    (service = await startService(kind, { env: { SMTP_URL: 'smtp://user:smtppass@127.0.0.1:2525', ...env } }));
  const rows = async (svc: TestService) =>
    (await sql<{ settings: string; sealed: string | null }>`select settings, sealed from notification_channels`.execute(dbOf(svc.store)))
      .rows;

  it('creates every type, and no read shows a secret', async () => {
    const svc = await start();
    const bodies = [
      { type: 'email', to: 'grower@example.org', name: 'Mail' },
      { type: 'ntfy', url: 'https://ntfy.example.org', topic: 'tanks', token: NTFY_TOKEN, min_severity: 'critical' },
      { type: 'telegram', bot_token: BOT_TOKEN, chat_id: '-1001234', quiet: { from: '22:00', to: '07:00' } },
      { type: 'pushover', app_token: APP_TOKEN, user_key: USER_KEY, prototype_ids: [0], escalation: true },
      { type: 'webhook', url: 'https://hooks.example.org/x' },
    ];
    for (const body of bodies) {
      const made = await svc.post('/notifications/channels', body);
      expect(made.status, made.text).toBe(200);
      expect(made.body.channel_id).toEqual(expect.any(Number));
      expect(made.body.type).toBe(body.type);
    }
    const list = await svc.get('/notifications/channels');
    expect(list.status).toBe(200);
    expect(list.body.map((c: { type: string }) => c.type)).toEqual(['email', 'ntfy', 'telegram', 'pushover', 'webhook']);
    for (const secret of [BOT_TOKEN, APP_TOKEN, USER_KEY, NTFY_TOKEN]) expect(list.text).not.toContain(secret);
    expect(list.body[1]).toMatchObject({
      url: 'https://ntfy.example.org',
      topic: 'tanks',
      min_severity: 'critical',
      secrets_set: ['token'],
    });
    expect(list.body[2]).toMatchObject({ chat_id: '-1001234', quiet: { from: '22:00', to: '07:00' }, secrets_set: ['bot_token'] });
    expect(list.body[3]).toMatchObject({ prototype_ids: [0], escalation: true, secrets_set: ['app_token', 'user_key'] });
    expect(list.body[0]).toMatchObject({
      to: 'grower@example.org',
      name: 'Mail',
      min_severity: 'warning',
      prototype_ids: null,
      quiet: null,
    });
    // At rest only the sealed form.
    const stored = JSON.stringify(await rows(svc));
    for (const secret of [BOT_TOKEN, APP_TOKEN, USER_KEY, NTFY_TOKEN]) expect(stored).not.toContain(secret);
    const one = await svc.get(`/notifications/channels/${list.body[2].channel_id}`);
    expect(one.status).toBe(200);
    expect(one.text).not.toContain(BOT_TOKEN);
  });

  it('a backup holds the channels with their secrets only sealed', async () => {
    const svc = await start();
    expect((await svc.post('/notifications/channels', { type: 'telegram', bot_token: BOT_TOKEN, chat_id: '42' })).status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'sensorhub-notify-backup-'));
    try {
      const file = join(dir, 'copy.db');
      const counts = await svc.store.backupTo(file, () => {});
      expect(counts.notification_channels).toBe(1);
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from(BOT_TOKEN))).toBe(false);
      expect(bytes.includes(Buffer.from('"chat_id":"42"'))).toBe(true);
      const [{ sealed }] = await rows(svc);
      expect(bytes.includes(Buffer.from(sealed as string))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [{ type: 'sms', to: 'x' }, 'type'],
    [{ to: 'a@b.c' }, 'type'],
    [{ type: 'email' }, 'to'],
    [{ type: 'email', to: 'not an address' }, 'to'],
    [{ type: 'ntfy', topic: 'tanks' }, 'url'],
    [{ type: 'ntfy', url: 'ftp://x', topic: 'tanks' }, 'url'],
    [{ type: 'ntfy', url: 'https://n.example', topic: 'bad topic!' }, 'topic'],
    [{ type: 'telegram', chat_id: '1' }, 'bot_token'],
    [{ type: 'telegram', bot_token: 'nope', chat_id: '1' }, 'bot_token'],
    [{ type: 'telegram', bot_token: BOT_TOKEN }, 'chat_id'],
    [{ type: 'pushover', app_token: APP_TOKEN }, 'user_key'],
    [{ type: 'webhook', url: 'https://h.example', min_severity: 'loud' }, 'min_severity'],
    [{ type: 'webhook', url: 'https://h.example', quiet: { from: '25:00', to: '07:00' } }, 'quiet'],
    [{ type: 'webhook', url: 'https://h.example', quiet: { from: '22:00', to: '7:00' } }, 'quiet'],
    [{ type: 'webhook', url: 'https://h.example', quiet: '22-07' }, 'quiet'],
    [{ type: 'webhook', url: 'https://h.example', escalation: 'yes' }, 'escalation'],
    [{ type: 'webhook', url: 'https://h.example', prototype_ids: ['x'] }, 'prototype_ids'],
    [{ type: 'webhook', url: 'https://h.example', name: '' }, 'name'],
  ])('refuses %j with 422 naming %s, writing nothing', async (body, field) => {
    const svc = await start();
    const answer = await svc.post('/notifications/channels', body);
    expect(answer.status, answer.text).toBe(422);
    expect(answer.body.detail.map((d: { loc: string[] }) => d.loc[1])).toContain(field);
    expect(await rows(svc)).toEqual([]);
  });

  it('refuses an email channel without SMTP_URL, and a prototype that does not exist (404), writing nothing', async () => {
    const svc = await start({ SMTP_URL: '' });
    expect((await svc.post('/notifications/channels', { type: 'email', to: 'a@b.org' })).status).toBe(422);
    const missing = await svc.post('/notifications/channels', { type: 'webhook', url: 'https://h.example', prototype_ids: [999] });
    expect(missing.status).toBe(404);
    expect(await rows(svc)).toEqual([]);
  });

  it('PATCH keeps secrets left out, replaces those given, refuses bad input unchanged; DELETE removes', async () => {
    const svc = await start();
    const made = await svc.post('/notifications/channels', { type: 'telegram', bot_token: BOT_TOKEN, chat_id: '42' });
    const id = made.body.channel_id;
    const renamed = await svc.patch(`/notifications/channels/${id}`, { name: 'Phone', min_severity: 'critical' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Phone', min_severity: 'critical', chat_id: '42', secrets_set: ['bot_token'] });
    const before = await rows(svc);
    const bad = await svc.patch(`/notifications/channels/${id}`, { chat_id: 'x y', bot_token: 'bad' });
    expect(bad.status).toBe(422);
    expect(await rows(svc)).toEqual(before);
    // Another type needs that type's fields.
    expect((await svc.patch(`/notifications/channels/${id}`, { type: 'ntfy' })).status).toBe(422);
    expect((await svc.patch('/notifications/channels/999', { name: 'x' })).status).toBe(404);
    expect((await svc.patch('/notifications/channels/abc', { name: 'x' })).status).toBe(422);
    expect((await svc.request('DELETE', `/notifications/channels/${id}`)).status).toBe(204);
    expect((await svc.get(`/notifications/channels/${id}`)).status).toBe(404);
    expect((await svc.request('DELETE', `/notifications/channels/${id}`)).status).toBe(404);
  });
});
