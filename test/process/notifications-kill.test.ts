import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { farEnd } from '../helpers/notification-far-ends.js';
import { spawnService } from '../helpers/process.js';
import { bareConnection, type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe.each(storeKinds())('notifications across a kill (%s)', (kind) => {
  let database: ScratchDatabase;
  beforeAll(async () => {
    database = await scratchDatabase(kind);
  });
  afterAll(() => database?.drop());

  it('SIGKILL between enqueue and send loses nothing and sends nothing twice; the restart tells how long the service was down', async () => {
    const ntfy = await farEnd('ntfy');
    const env = { DATABASE_URL: database.url, NOTIFY_TIME_ZONE: 'UTC' };
    const { db } = bareConnection(kind, database.url);
    const waiting = async () =>
      (await sql<{ attempts: number }>`select attempts from alert_notifications order by notification_id`.execute(db)).rows;
    const first = await spawnService(env);
    try {
      const made = await post(`${first.url}/notifications/channels`, { type: 'ntfy', name: 'Phone', url: ntfy.url, topic: 'tanks' });
      expect(made.status).toBe(200);
      // The far end is down: the message waits in the outbox, tried once.
      ntfy.state.failing = true;
      // Default sensor 1 (ec, thresholds 0, 1, 2, 3): 5 is critically high.
      expect((await post(`${first.url}/measurements`, { sensor_id: 1, value: 5 })).status).toBe(200);
      await eventually(
        async () => {
          const rows = await waiting();
          return rows.length === 1 && rows[0].attempts >= 1;
        },
        'the message enqueued and its first send failed',
        60_000,
      );
      expect(await first.stop('SIGKILL')).toBeNull();

      ntfy.state.failing = false;
      const second = await spawnService(env);
      try {
        await eventually(() => ntfy.received.length >= 2, 'the alert and the notice delivered', 60_000);
        await eventually(async () => (await waiting()).length === 0, 'the outbox empty', 60_000);
        const titles = ntfy.received.map((r) => r.body.title as string);
        expect(titles.filter((t) => t.startsWith('CRITICAL'))).toHaveLength(1);
        expect(titles.filter((t) => t.startsWith('sensorhub is back after being down about'))).toHaveLength(1);
        expect(ntfy.unique()).toHaveLength(ntfy.received.length);
        const notice = ntfy.received.find((r) => r.body.title.startsWith('sensorhub is back'));
        expect(notice?.body.message).toContain('without shutting down');
      } finally {
        expect(await second.stop('SIGTERM')).toBe(0);
      }

      // After a clean stop, no notice.
      const count = ntfy.received.length;
      const third = await spawnService(env);
      try {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(ntfy.received.slice(count).filter((r) => r.body.title.startsWith('sensorhub is back'))).toEqual([]);
      } finally {
        await third.stop();
      }
    } finally {
      await db.destroy();
      await ntfy.close();
    }
  }, 240_000);
});
