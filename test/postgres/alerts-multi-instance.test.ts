import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestJson, type ServiceProcess, spawnService } from '../helpers/process.js';
import { openStream } from '../helpers/sse.js';
import { bareConnection, type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';
import { eventually } from '../helpers/eventually.js';
import { type WebhookReceiver, webhookReceiver } from '../helpers/webhook-receiver.js';
import { temperatureSensorBody } from '../helpers/bodies.js';

const SENSOR = temperatureSensorBody;

describe.runIf(process.env.TEST_DATABASE_URL)('alerts with several service processes on one PostgreSQL database', () => {
  let database: ScratchDatabase;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let hook: WebhookReceiver;
  let db: ReturnType<typeof bareConnection>['db'];
  const alertsOf = async (sensorId: number) =>
    (await sql<{ kind: string; state: string }>`select kind, state from alerts where sensor_id = ${sensorId} order by alert_id`.execute(db))
      .rows;

  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    hook = await webhookReceiver();
    const env = { DATABASE_URL: database.url, ALERT_WEBHOOK_URLS: hook.url, STALE_AFTER: '4' };
    [a, b] = await Promise.all([spawnService(env), spawnService(env)]);
    db = bareConnection('postgres', database.url).db;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.destroy();
    await hook?.close();
    await database?.drop();
  });

  it('concurrent ingest through both processes from many clients gives one active alert per sensor and kind', async () => {
    const sensor = await requestJson(`${a.url}/sensors/`, 'POST', SENSOR);
    const sensorId = sensor.body.sensor_id as number;
    const stream = await openStream(`${b.url}/events?sensor_id=${sensorId}&types=alert`);
    try {
      const values = [35, 25, 45, 25, 31, 29, 50, 22];
      const posts = await Promise.all(
        Array.from({ length: 64 }, (_, i) =>
          requestJson(`${(i % 2 ? a : b).url}/measurements`, 'POST', { sensor_id: sensorId, value: values[i % values.length] }),
        ),
      );
      expect(posts.every((p) => p.status === 200)).toBe(true);
      // The newest committed value decides, and under concurrency that may be an ok one: a high
      // value posted after the burst makes the outcome certain. Whatever the burst raised, one high
      // alert at most may ever exist (clear-after is a minute).
      expect((await requestJson(`${a.url}/measurements`, 'POST', { sensor_id: sensorId, value: 35 })).status).toBe(200);
      await eventually(async () => (await alertsOf(sensorId)).some((x) => x.kind === 'high'), 'a high alert', 60_000);
      await eventually(
        async () => (await requestJson(`${b.url}/alerts?sensor_id=${sensorId}`)).body.length === 1,
        'the alert on the other instance',
        60_000,
      );
      const rows = await alertsOf(sensorId);
      expect(rows.filter((x) => x.kind === 'high')).toEqual([{ kind: 'high', state: 'active' }]);
      // Process b hears of the alert raised on either process.
      const raised = await stream.next((e) => JSON.parse(e.data).event === 'raised', { timeoutMs: 60_000 });
      expect(JSON.parse(raised.data).alert).toMatchObject({ sensor_id: sensorId, kind: 'high' });
    } finally {
      stream.close();
    }
  });

  it('the schema itself refuses a second active alert of one sensor and kind', async () => {
    const sensorId = (await requestJson(`${a.url}/sensors/`, 'POST', SENSOR)).body.sensor_id as number;
    const insert = () =>
      sql`insert into alerts (sensor_id, kind, severity, state, raised_at) values (${sensorId}, 'high', 'warning', 'active', now())`.execute(
        db,
      );
    await insert();
    await expect(insert()).rejects.toThrow(/alerts_one_active/);
    await sql`update alerts set state = 'cleared' where sensor_id = ${sensorId}`.execute(db);
    await insert();
  });

  it('a sensor turning stale is alerted once, though both processes have the alarm, and the webhook hears it once', async () => {
    const sensorId = (await requestJson(`${b.url}/sensors/`, 'POST', SENSOR)).body.sensor_id as number;
    // Posted to a, relayed to b: both know the newest measurement and set the stale alarm.
    expect((await requestJson(`${a.url}/measurements`, 'POST', { sensor_id: sensorId, value: 25 })).status).toBe(200);
    await eventually(async () => (await alertsOf(sensorId)).length > 0, 'an alert', 20_000);
    const stale = await eventually(
      async () => {
        const got = hook.received.filter((d) => d.body.alert.sensor_id === sensorId);
        return got.length > 0 ? got : undefined;
      },
      'the stale alert notified',
      60_000,
    );
    // Both alarms are set for the same instant; the evaluation that comes second finds the alert raised.
    expect((await requestJson(`${a.url}/alerts?sensor_id=${sensorId}`)).body).toEqual(
      (await requestJson(`${b.url}/alerts?sensor_id=${sensorId}`)).body,
    );
    expect(await alertsOf(sensorId)).toEqual([{ kind: 'stale', state: 'active' }]);
    expect(stale.map((d) => d.body.event)).toEqual(['raised']);
  }, 180_000);
});
