import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { manualServiceTimers } from '../helpers/manual-timers.js';
import { farEnd, smtpReceiver } from '../helpers/notification-far-ends.js';
import { startService, type TestService } from '../helpers/service.js';
import { dbOf, storeKinds } from '../helpers/stores.js';
import { temperatureSensorBody } from '../helpers/bodies.js';

/** 12:00 UTC, outside any quiet hours below. */
const NOW = Date.UTC(2026, 10, 22, 12);
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(storeKinds())('notifications delivered (%s)', (kind) => {
  let service: TestService | undefined;
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await service?.close();
    service = undefined;
    for (const close of closers.splice(0)) await close();
  });

  async function setUp(now = NOW, lines?: string[]) {
    const ntfy = await farEnd('ntfy');
    const telegram = await farEnd('telegram');
    const pushover = await farEnd('pushover');
    const hook = await farEnd('webhook');
    const smtp = await smtpReceiver();
    closers.push(ntfy.close, telegram.close, pushover.close, hook.close, smtp.close);
    const manual = manualServiceTimers(now);
    const svc = (service = await startService(kind, {
      now,
      env: {
        SMTP_URL: `smtp://grower:mailpass@127.0.0.1:${smtp.port}`,
        SMTP_FROM: 'sensorhub <hub@example.org>',
        TELEGRAM_API_URL: telegram.url,
        PUSHOVER_API_URL: pushover.url,
        NOTIFY_TIME_ZONE: 'UTC',
        PUBLIC_URL: 'https://hub.example.org',
      },
      app: {
        alerts: { timers: manual.timers },
        ...(lines ? { logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } } } : {}),
      },
    }));
    manual.follow(svc);
    const sensor = await svc.post('/sensors/', { ...temperatureSensorBody, sensor_name: 'Root zone' });
    expect(sensor.status).toBe(200);
    // Alarms that work done after the clock moved set for "now" ring too, as real timers would.
    const settle = async () => {
      for (let i = 0; i < 10; i++) {
        await svc.app.alertsSettled();
        await svc.app.notificationsSettled();
        const now = svc.clock.now as number;
        if (!manual.due().some((at) => at <= now)) return;
        manual.advanceTo(now);
      }
    };
    const measure = async (value: number, sensorId = sensor.body.sensor_id as number) => {
      expect((await svc.post('/measurements', { sensor_id: sensorId, value, timestamp: iso(svc.clock.now as number) })).status).toBe(200);
      await settle();
    };
    const channel = async (body: object) => {
      const made = await svc.post('/notifications/channels', body);
      expect(made.status, made.text).toBe(200);
      return made.body.channel_id as number;
    };
    return { svc, ntfy, telegram, pushover, hook, smtp, manual, sensorId: sensor.body.sensor_id as number, measure, channel, settle };
  }

  it('a critical alert reaches every channel with tank, sensor, value, what to do and an acknowledge link', async () => {
    const { svc, ntfy, telegram, pushover, smtp, measure, channel } = await setUp();
    await channel({ type: 'ntfy', name: 'Phone', url: ntfy.url, topic: 'tanks', token: 'tk_abcdefghijklmnop' });
    await channel({ type: 'telegram', bot_token: telegram.state.botToken, chat_id: '4242' });
    await channel({ type: 'pushover', app_token: pushover.state.appToken, user_key: 'u'.repeat(30) });
    await channel({ type: 'email', to: 'grower@example.org' });
    await measure(45);

    const [n] = await ntfy.waitFor(1);
    expect(n.path).toBe('/');
    expect(n.headers.authorization).toBe('Bearer tk_abcdefghijklmnop');
    expect(n.body.topic).toBe('tanks');
    expect(n.body.priority).toBe(5);
    expect(n.body.title).toContain('CRITICAL');
    expect(n.body.title).toContain('"Root zone"');
    expect(n.body.message).toContain('critically high: 45 Celsius');
    expect(n.body.message).toMatch(/Check /);
    const ack = n.body.actions.find((a: { label: string }) => a.label === 'Acknowledge');
    expect(ack).toMatchObject({ action: 'http', method: 'POST' });
    expect(ack.url).toMatch(/^https:\/\/hub\.example\.org\/notifications\/ack\//);
    expect(n.headers['x-sequence-id']).toBe(n.body.sequence_id);

    const [t] = await telegram.waitFor(1);
    expect(t.body.chat_id).toBe('4242');
    expect(t.body.text).toContain('critically high');
    expect(t.body.reply_markup.inline_keyboard[0][0]).toMatchObject({
      text: 'Acknowledge',
      url: expect.stringContaining('/notifications/ack/'),
    });

    const [p] = await pushover.waitFor(1);
    expect(p.body).toMatchObject({ user: 'u'.repeat(30), priority: '1', url_title: 'Acknowledge' });
    expect(p.body.message).toContain('45 Celsius');

    const [mail] = await smtp.waitFor(1);
    expect(mail.subject).toContain('CRITICAL');
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('grower@example.org');
    expect(mail.text).toContain('Acknowledge: https://hub.example.org/notifications/ack/');
    expect(mail.html || '').toContain('>Acknowledge</a>');
    expect(smtp.logins).toEqual(['grower:mailpass']);

    // The outbox is empty once the far ends took them.
    await eventually(
      async () =>
        Number((await sql<{ n: number }>`select count(*) as n from alert_notifications`.execute(dbOf(svc.store))).rows[0].n) === 0,
    );
  });

  it('the acknowledge link: a GET only shows, the POST acknowledges once without login; used, forged and expired links refused', async () => {
    const { svc, ntfy, telegram, measure, channel, manual } = await setUp();
    await channel({ type: 'ntfy', name: 'Phone', url: ntfy.url, topic: 'tanks' });
    await channel({ type: 'telegram', name: 'Chat', bot_token: telegram.state.botToken, chat_id: '1' });
    await measure(45);
    const [n] = await ntfy.waitFor(1);
    const [t] = await telegram.waitFor(1);
    const link = new URL(n.body.actions[0].url);
    const path = link.pathname;
    const [alert] = (await svc.get('/alerts')).body;

    const shown = await svc.get(path);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toContain('text/html');
    expect(shown.text).toContain('<button type="submit">Acknowledge</button>');
    expect((await svc.get(`/alerts/${alert.alert_id}`)).body.acknowledged_at).toBeNull();

    const forged = path.slice(0, -2) + (path.endsWith('AA') ? 'BB' : 'AA');
    expect((await svc.post(forged)).status).toBe(404);
    expect((await svc.get(forged)).status).toBe(404);

    const used = await svc.request('POST', path, { raw: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(used.status, used.text).toBe(200);
    const after = (await svc.get(`/alerts/${alert.alert_id}`)).body;
    expect(after.acknowledged_by).toBe('via link from Phone');
    expect((await svc.post(path)).status).toBe(410);
    expect((await svc.get(path)).status).toBe(410);

    // The Telegram link expires after NOTIFY_LINK_TTL (7 days).
    manual.advanceTo(NOW + 7 * 24 * 60 * MIN);
    const telegramPath = new URL(t.body.reply_markup.inline_keyboard[0][0].url).pathname;
    expect((await svc.post(telegramPath)).status).toBe(410);
  });

  it('repeats an unanswered critical alert after 5, 15 and 60 minutes, escalates after 30, stops once acknowledged', async () => {
    const { svc, ntfy, hook, measure, channel, manual, settle } = await setUp();
    await channel({ type: 'ntfy', url: ntfy.url, topic: 'tanks' });
    await channel({ type: 'webhook', name: 'Neighbour', url: `${hook.url}/hook`, escalation: true });
    await measure(45);
    await ntfy.waitFor(1);
    const at = async (minutes: number) => {
      manual.advanceTo(NOW + minutes * MIN);
      await settle();
    };
    await at(4);
    expect(ntfy.received).toHaveLength(1);
    await at(5);
    await ntfy.waitFor(2);
    expect(ntfy.received[1].body.message).toContain('reminder 1');
    await at(19);
    expect(ntfy.received).toHaveLength(2);
    await at(20);
    await ntfy.waitFor(3);
    expect(hook.received).toHaveLength(0);
    await at(30);
    const [escalated] = await hook.waitFor(1);
    expect(escalated.body.text).toContain('Nobody answered');
    expect(ntfy.received).toHaveLength(3);
    await at(80);
    await ntfy.waitFor(4);
    await hook.waitFor(2);
    await at(140);
    await ntfy.waitFor(5);
    const [alert] = (await svc.get('/alerts')).body;
    expect((await svc.post(`/alerts/${alert.alert_id}/acknowledge`)).status).toBe(200);
    await settle();
    await at(600);
    expect(ntfy.received).toHaveLength(5);
    expect(hook.received).toHaveLength(3);
  });

  it('quiet hours across midnight hold warnings until they end; critical alerts go at once', async () => {
    const night = Date.UTC(2026, 10, 22, 23, 30);
    const { svc, ntfy, measure, channel, manual, settle } = await setUp(night);
    await channel({ type: 'ntfy', url: ntfy.url, topic: 'tanks', quiet: { from: '22:00', to: '07:00' } });
    await measure(35);
    await settle();
    expect(ntfy.received).toHaveLength(0);
    const other = await svc.post('/sensors/', { ...temperatureSensorBody, sensor_name: 'Reservoir' });
    await measure(45, other.body.sensor_id);
    const [critical] = await ntfy.waitFor(1);
    expect(critical.body.title).toContain('"Reservoir"');
    // Answered: no reminders in the night.
    const reservoir = (await svc.get(`/alerts?sensor_id=${other.body.sensor_id}`)).body[0];
    expect((await svc.post(`/alerts/${reservoir.alert_id}/acknowledge`)).status).toBe(200);
    await settle();
    manual.advanceTo(Date.UTC(2026, 10, 23, 6, 59));
    await settle();
    expect(ntfy.received).toHaveLength(1);
    manual.advanceTo(Date.UTC(2026, 10, 23, 7, 0));
    await settle();
    const got = await ntfy.waitFor(2);
    expect(got[1].body.title).toContain('Warning');
    expect(got[1].body.title).toContain('"Root zone"');
  });

  it('the Test button answers what the far end said; a channel failing for an hour is told on the others', async () => {
    const { svc, ntfy, telegram, measure, channel, manual, settle } = await setUp();
    const phone = await channel({ type: 'ntfy', name: 'Phone', url: ntfy.url, topic: 'tanks' });
    const chat = await channel({ type: 'telegram', bot_token: '999:wrongwrongwrongwrongwrong', chat_id: '1' });
    const tested = await svc.post(`/notifications/channels/${phone}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ ok: true, status: 200 });
    expect(tested.body.detail).toContain('"event":"message"');
    const refused = await svc.post(`/notifications/channels/${chat}/test`);
    expect(refused.body).toMatchObject({ ok: false, status: 401 });
    expect(refused.body.detail).toContain('Unauthorized');
    expect(refused.text).not.toContain('wrongwrongwrong');
    expect((await svc.post('/notifications/channels/999/test')).status).toBe(404);
    expect((await svc.patch(`/notifications/channels/${chat}`, { bot_token: telegram.state.botToken })).status).toBe(200);

    ntfy.state.failing = true;
    await measure(45);
    await telegram.waitFor(2);
    await eventually(
      async () => (await svc.get(`/notifications/channels/${phone}`)).body.failing_since !== null,
      'the channel marked failing',
    );
    manual.advanceTo(NOW + 61 * MIN);
    await settle();
    await eventually(async () => {
      await settle();
      return true;
    });
    await eventually(() => telegram.received.some((r) => r.body.text.includes('channel "Phone" is failing')), 'the failing channel told');
    expect((await svc.get(`/notifications/channels/${phone}`)).text).not.toContain('tk_');
  });

  it("never writes an acknowledge link's token to the log", async () => {
    const lines: string[] = [];
    const { svc, ntfy, measure, channel } = await setUp(NOW, lines);
    await channel({ type: 'ntfy', name: 'Phone', url: ntfy.url, topic: 'tanks' });
    await measure(45);
    const [n] = await ntfy.waitFor(1);
    const path = new URL(n.body.actions[0].url).pathname;
    const token = path.split('/').pop()!;
    expect((await svc.get(path)).status).toBe(200);
    const used = await svc.request('POST', path, { raw: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(used.status).toBe(200);
    await eventually(() => lines.filter((line) => line.includes('/notifications/ack/[redacted]')).length >= 2, 'both requests logged');
    expect(lines.join('\n')).not.toContain(token);
  });

  it('never writes a secret to the log, also when deliveries fail', async () => {
    const lines: string[] = [];
    const { svc, ntfy, measure, channel, settle } = await setUp(NOW, lines);
    const wrongBot = '999:wrongwrongwrongwrongwrongwrong';
    await channel({ type: 'ntfy', url: ntfy.url, topic: 'tanks', token: 'tk_secretsecretsecret' });
    await channel({ type: 'telegram', bot_token: wrongBot, chat_id: '1' });
    ntfy.state.failing = true;
    await measure(45);
    await settle();
    await eventually(() => lines.some((line) => line.includes('notification not delivered')), 'a failed delivery logged');
    expect((await svc.get('/notifications/channels')).status).toBe(200);
    const log = lines.join('\n');
    expect(log).not.toContain('tk_secretsecretsecret');
    expect(log).not.toContain(wrongBot);
  });
});
