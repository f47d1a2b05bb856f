import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnService } from '../helpers/process.js';
import { bareConnection, type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';
import { eventually } from '../helpers/eventually.js';
import { freePort, webhookReceiver } from '../helpers/webhook-receiver.js';

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe.each(storeKinds())('alert notifications across a kill (%s)', (kind) => {
  let database: ScratchDatabase;
  beforeAll(async () => {
    database = await scratchDatabase(kind);
  });
  afterAll(() => database?.drop());

  it('a service killed with SIGKILL before its webhook could be reached delivers the notifications after restart', async () => {
    const port = await freePort();
    const env = { DATABASE_URL: database.url, ALERT_WEBHOOK_URLS: `http://127.0.0.1:${port}/hook` };
    const first = await spawnService(env);
    const { db } = bareConnection(kind, database.url);
    try {
      const waiting = async () =>
        (
          await sql<{
            payload: string;
            attempts: number;
          }>`select payload, attempts from alert_notifications order by notification_id`.execute(db)
        ).rows;
      // Default sensor 1 is ec, thresholds 0, 1, 2, 3: 2.5 is high, then 5 critically high (an escalation
      // is at once; a de-escalation would wait ALERT_CLEAR_AFTER). The second is posted once the first is
      // evaluated (an evaluation reads the newest committed row: posted at once, 5 could be the first one it sees).
      expect((await post(`${first.url}/measurements`, { sensor_id: 1, value: 2.5 })).status).toBe(200);
      await eventually(async () => (await waiting()).length === 1, 'one notification waiting', 60_000);
      expect((await post(`${first.url}/measurements`, { sensor_id: 1, value: 5 })).status).toBe(200);
      // Both events are in the outbox and the first delivery has failed (nobody listens on the port).
      await eventually(
        async () => {
          const rows = await waiting();
          return rows.length === 2 && rows[0].attempts >= 1;
          // A real process on a loaded machine: a wait, not a time limit under test.
        },
        'both events in the outbox, the first delivery failed',
        60_000,
      );
      expect(await first.stop('SIGKILL')).toBeNull();

      const hook = await webhookReceiver(port);
      const second = await spawnService(env);
      try {
        const got = await hook.waitFor(2, 60_000);
        expect(got.map((d) => [d.body.event, d.body.alert.severity])).toEqual([
          ['raised', 'warning'],
          ['escalated', 'critical'],
        ]);
        expect(got.every((d) => d.headers['idempotency-key'] === d.body.id)).toBe(true);
        await eventually(async () => (await waiting()).length === 0, 'no notification waiting', 60_000);
        const active = (await (await fetch(`${second.url}/alerts?sensor_id=1`)).json()) as { alert_id: number }[];
        expect(active.map((a) => a.alert_id)).toEqual([got[0].body.alert.alert_id]);
      } finally {
        await second.stop();
        await hook.close();
      }
    } finally {
      await db.destroy();
    }
  }, 180_000);
});
