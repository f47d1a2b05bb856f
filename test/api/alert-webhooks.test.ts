import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { manualServiceTimers } from '../helpers/manual-timers.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds, dbOf } from '../helpers/stores.js';
import { eventually } from '../helpers/eventually.js';
import { freePort, streamedBody, type WebhookReceiver, webhookReceiver } from '../helpers/webhook-receiver.js';
import { temperatureSensorBody } from '../helpers/bodies.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const iso = (ms: number) => new Date(ms).toISOString();
const SENSOR = temperatureSensorBody;
const MB = 1024 * 1024;

/** A port nothing listens on (taken and released). */

describe.each(storeKinds())('alert webhooks (%s)', (kind) => {
  let service: TestService | undefined;
  let manual: ReturnType<typeof manualServiceTimers>;
  const receivers: WebhookReceiver[] = [];

  const start = async (urls: string[], env: Record<string, string> = {}, timeoutMs = 10_000) => {
    manual = manualServiceTimers();
    service = await startService(kind, {
      env: { ALERT_WEBHOOK_URLS: urls.join(','), ALERT_CLEAR_AFTER: 'PT1M', ...env },
      app: { alerts: { timers: manual.timers, webhooks: { timeoutMs } } },
    });
    manual.follow(service);
    service.clock.now = NOW;
    const sensor = await service.post('/sensors/', SENSOR);
    expect(sensor.status).toBe(200);
    return { svc: service, sensor_id: sensor.body.sensor_id as number };
  };
  const receiver = async (port?: number) => {
    const r = await webhookReceiver(port);
    receivers.push(r);
    return r;
  };
  const measure = async (svc: TestService, sensor_id: number, value: number) => {
    expect((await svc.post('/measurements', { sensor_id, value, timestamp: iso(svc.clock.now as number) })).status).toBe(200);
    await svc.app.alertsSettled();
  };
  const outbox = async (svc: TestService) =>
    (
      await sql<{
        attempts: number;
        last_error: string | null;
      }>`select attempts, last_error from alert_notifications order by notification_id`.execute(dbOf(svc.store))
    ).rows;

  /** Moves the clock to `at` once the service has set its alarm for that instant (it does so after a failed attempt is recorded). */
  const retryAt = async (at: number) => {
    await eventually(async () => manual.due().includes(at));
    manual.advanceTo(at);
  };

  afterEach(async () => {
    await service?.close();
    service = undefined;
    for (const r of receivers.splice(0)) await r.close();
  });

  it('POSTs every event of an alert in order, as JSON with an idempotency key, and empties the outbox', async () => {
    const hook = await receiver();
    const { svc, sensor_id } = await start([hook.url]);
    await measure(svc, sensor_id, 35);
    await measure(svc, sensor_id, 45);
    const [alert] = (await svc.get(`/alerts?sensor_id=${sensor_id}`)).body;
    expect((await svc.post(`/alerts/${alert.alert_id}/acknowledge`)).status).toBe(200);
    await measure(svc, sensor_id, 25);
    manual.advanceTo(NOW + 60_000);
    await svc.app.alertsSettled();
    const got = await hook.waitFor(4);
    expect(got.map((d) => d.body.event)).toEqual(['raised', 'escalated', 'acknowledged', 'cleared']);
    for (const d of got) {
      expect(d.headers['content-type']).toBe('application/json');
      expect(d.headers['idempotency-key']).toBe(d.body.id);
      expect(d.body.alert.alert_id).toBe(alert.alert_id);
    }
    expect(new Set(got.map((d) => d.body.id)).size).toBe(4);
    expect(got[3].body.alert).toEqual((await svc.get(`/alerts/${alert.alert_id}`)).body);
    await eventually(async () => (await outbox(svc)).length === 0);
  });

  it('a failing receiver gets the same notification again with backoff, same key, and the next event only after it', async () => {
    const hook = await receiver();
    hook.answerWith((res) => {
      res.statusCode = 500;
      res.end('down for maintenance');
    });
    const { svc, sensor_id } = await start([hook.url]);
    await measure(svc, sensor_id, 35);
    await hook.waitFor(1);
    await eventually(async () => (await outbox(svc))[0]?.attempts === 1);
    expect((await outbox(svc))[0].last_error).toBe('HTTP 500');
    await measure(svc, sensor_id, 45);
    // The escalation waits behind the raise: nothing new reaches the receiver before its retry.
    expect(hook.received).toHaveLength(1);

    await eventually(async () => manual.due().includes(NOW + 1000));
    manual.advanceTo(NOW + 999);
    expect(hook.received).toHaveLength(1);
    await retryAt(NOW + 1000);
    await hook.waitFor(2);
    await eventually(async () => (await outbox(svc))[0]?.attempts === 2);
    hook.answerWith((res) => res.end());
    await retryAt(NOW + 3000);
    const got = await hook.waitFor(4);
    expect(got.map((d) => d.body.event)).toEqual(['raised', 'raised', 'raised', 'escalated']);
    expect(new Set(got.slice(0, 3).map((d) => d.headers['idempotency-key'])).size).toBe(1);
    await eventually(async () => (await outbox(svc)).length === 0);
  });

  it('a slow receiver delays neither ingest nor the other webhooks', async () => {
    const slow = await receiver();
    const fast = await receiver();
    let release: (() => void) | undefined;
    slow.answerWith((res) => {
      release = () => res.end();
    });
    const { svc, sensor_id } = await start([slow.url, fast.url], {}, 60_000);
    await measure(svc, sensor_id, 35);
    await fast.waitFor(1);
    await slow.waitFor(1);
    // The slow one has not answered; ingest goes on and the fast receiver gets the next event too.
    await measure(svc, sensor_id, 45);
    expect((await svc.post('/measurements', { sensor_id, value: 46 })).status).toBe(200);
    const fastGot = await fast.waitFor(2);
    expect(fastGot.map((d) => d.body.event)).toEqual(['raised', 'escalated']);
    expect(slow.received).toHaveLength(1);
    release?.();
    const slowGot = await slow.waitFor(2);
    expect(slowGot.map((d) => d.body.event)).toEqual(['raised', 'escalated']);
  });

  it('a receiver that takes longer than the time limit counts as failed and is tried again', async () => {
    const slow = await receiver();
    slow.answerWith(() => {});
    const { svc, sensor_id } = await start([slow.url], {}, 200);
    await measure(svc, sensor_id, 35);
    await eventually(async () => (await outbox(svc))[0]?.attempts === 1);
    expect((await outbox(svc))[0].last_error).toMatch(/no answer within 200 ms/);
    slow.answerWith((res) => res.end());
    await retryAt(NOW + 1000);
    await slow.waitFor(2);
    await eventually(async () => (await outbox(svc)).length === 0);
  });

  it('a receiver that is down gets what waited once it is up', async () => {
    const port = await freePort();
    const { svc, sensor_id } = await start([`http://127.0.0.1:${port}/hook`]);
    await measure(svc, sensor_id, 35);
    await retryAt(NOW + 1000);
    await eventually(async () => (await outbox(svc))[0]?.attempts === 2);
    const hook = await receiver(port);
    await retryAt(NOW + 3000);
    const [delivery] = await hook.waitFor(1);
    expect(delivery.body).toMatchObject({ event: 'raised', alert: { sensor_id, kind: 'high' } });
    await eventually(async () => (await outbox(svc)).length === 0);
  });

  it('gives a notification up after ALERT_WEBHOOK_RETRY_FOR and goes on with the next', async () => {
    const hook = await receiver();
    hook.answerWith((res) => {
      res.statusCode = 503;
      res.end();
    });
    const { svc, sensor_id } = await start([hook.url], { ALERT_WEBHOOK_RETRY_FOR: 'PT5S' });
    await measure(svc, sensor_id, 35);
    await eventually(async () => (await outbox(svc))[0]?.attempts === 1);
    svc.clock.now = NOW + 1;
    await measure(svc, sensor_id, 45);
    for (const at of [1000, 3000, 5000]) {
      const before = hook.received.length;
      await retryAt(NOW + at);
      await hook.waitFor(before + 1);
    }
    // The raise is given up at its deadline (5 s); the escalation, its own 5 s from NOW + 1 ms, goes next.
    hook.answerWith((res) => res.end());
    await eventually(async () => hook.received.some((d) => d.body.event === 'escalated'));
    await eventually(async () => (await outbox(svc)).length === 0);
  });

  it('a receiver answering 200 with a huge body: delivered without the body being read, and the next alert goes too', async () => {
    const hook = await receiver();
    const answers: ReturnType<typeof streamedBody>[] = [];
    hook.answerWith((res) => answers.push(streamedBody(res, 200, 300 * MB)));
    // A time limit far beyond the test's: only not reading the body lets the delivery finish.
    const { svc, sensor_id } = await start([hook.url], {}, 3_600_000);
    await measure(svc, sensor_id, 35);
    await eventually(async () => (await outbox(svc)).length === 0, 'the raise delivered');
    await answers[0].ended;
    // The service hung up long before the 300 MB: at most what the sockets' buffers hold went out.
    expect(answers[0].progress.hungUp).toBe(true);
    expect(answers[0].progress.written).toBeLessThan(32 * MB);

    hook.answerWith((res) => res.end('ok'));
    await measure(svc, sensor_id, 45);
    const got = await hook.waitFor(2);
    expect(got.map((d) => d.body.event)).toEqual(['raised', 'escalated']);
    await eventually(async () => (await outbox(svc)).length === 0);
  });

  it('a receiver that trickles its body without end does not hold the delivery', async () => {
    const hook = await receiver();
    let hungUp: Promise<void> | undefined;
    hook.answerWith((res) => {
      hungUp = new Promise((resolve) => res.on('close', resolve));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('still');
    });
    const { svc, sensor_id } = await start([hook.url], {}, 3_600_000);
    await measure(svc, sensor_id, 35);
    await eventually(async () => (await outbox(svc)).length === 0, 'the raise delivered');
    await hungUp;
  });

  it('a receiver answering 500 with a huge body: the body is not read, and the notification is retried', async () => {
    const hook = await receiver();
    const answers: ReturnType<typeof streamedBody>[] = [];
    hook.answerWith((res) => answers.push(streamedBody(res, 500, 300 * MB)));
    const { svc, sensor_id } = await start([hook.url], {}, 3_600_000);
    await measure(svc, sensor_id, 35);
    await eventually(async () => (await outbox(svc))[0]?.attempts === 1, 'the first attempt recorded');
    expect((await outbox(svc))[0].last_error).toBe('HTTP 500');
    await answers[0].ended;
    expect(answers[0].progress.hungUp).toBe(true);
    expect(answers[0].progress.written).toBeLessThan(32 * MB);

    hook.answerWith((res) => res.end('ok'));
    await retryAt(NOW + 1000);
    const got = await hook.waitFor(2);
    expect(got.map((d) => d.body.event)).toEqual(['raised', 'raised']);
    await eventually(async () => (await outbox(svc)).length === 0);
  });

  it('a value flapping around the critical bound: one alert, escalated once, de-escalated once after ALERT_CLEAR_AFTER short of critical', async () => {
    const hook = await receiver();
    const { svc, sensor_id } = await start([hook.url]);
    const alerts = async () => (await svc.get(`/alerts?sensor_id=${sensor_id}&state=all`)).body;
    // 100 readings a second apart, 39.9 and 40.1 in turn around threshold_critically_high (40): the last is 40.1.
    for (let i = 0; i < 100; i++) {
      manual.advanceTo(NOW + i * 1000);
      await measure(svc, sensor_id, i % 2 === 0 ? 39.9 : 40.1);
    }
    let [alert, ...more] = await alerts();
    expect(more).toEqual([]);
    expect(alert).toMatchObject({ kind: 'high', severity: 'critical', state: 'active', value: 39.9, peak: 40.1, last_value: 40.1 });
    // Two events so far, so two outbox rows, each delivered once.
    await eventually(async () => (await outbox(svc)).length === 0, 'the outbox emptied');
    expect(hook.received.map((d) => d.body.event)).toEqual(['raised', 'escalated']);

    // Then short of critical from NOW + 100 s on: a reading every 10 s; no de-escalation until ALERT_CLEAR_AFTER of it.
    const calmFrom = NOW + 100_000;
    for (let at = calmFrom; at < calmFrom + 60_000; at += 10_000) {
      manual.advanceTo(at);
      await measure(svc, sensor_id, 39.9);
    }
    manual.advanceTo(calmFrom + 60_000 - 1);
    await svc.app.alertsSettled();
    expect((await alerts())[0].severity).toBe('critical');
    manual.advanceTo(calmFrom + 60_000);
    await svc.app.alertsSettled();
    [alert, ...more] = await alerts();
    expect(more).toEqual([]);
    expect(alert).toMatchObject({ severity: 'warning', state: 'active', last_value: 39.9 });

    // Every outbox row went out once: three in all, one per event.
    await eventually(async () => (await outbox(svc)).length === 0, 'the outbox emptied');
    expect(hook.received.map((d) => [d.body.event, d.body.alert.severity])).toEqual([
      ['raised', 'warning'],
      ['escalated', 'critical'],
      ['escalated', 'warning'],
    ]);
  });
});
