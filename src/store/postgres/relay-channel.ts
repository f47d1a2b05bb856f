import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.js';
import type { RelayChannel, RelayListener } from '../store.js';

/** The channel every instance of one database listens on. */
export const CHANNEL = 'sensorhub_changes';
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5000;

/**
 * The store's relay on PostgreSQL: `NOTIFY` through the query builder's pool (a notification
 * leaves when its statement commits, so payloads sent one after the other arrive in order),
 * `LISTEN` on a connection of its own that is opened again when lost.
 */
export function postgresRelayChannel(databaseUrl: string, db: Kysely<Database>): RelayChannel {
  return {
    async publish(payload: string): Promise<void> {
      await sql`select pg_notify(${CHANNEL}, ${payload})`.execute(db);
    },
    listen: (listener) => listenOn(databaseUrl, listener),
  };
}

async function listenOn(databaseUrl: string, listener: RelayListener): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retryMs = RECONNECT_MIN_MS;
  let reconnectTimer: NodeJS.Timeout | undefined;

  function received(message: pg.Notification): void {
    if (message.channel === CHANNEL && message.payload !== undefined) listener.message(message.payload);
  }

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
    next.on('notification', received);
    const lost = () => {
      if (client !== next) return;
      client = undefined;
      void next.end().catch(() => {});
      scheduleReconnect();
    };
    next.on('error', (error) => {
      listener.failed(error);
      lost();
    });
    next.on('end', lost);
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    if (stopped) {
      await next.end();
      return;
    }
    client = next;
  }

  function scheduleReconnect(): void {
    if (stopped || reconnectTimer) return;
    reconnectTimer = setTimeout(async () => {
      reconnectTimer = undefined;
      try {
        await connect();
        retryMs = RECONNECT_MIN_MS;
        listener.restored();
      } catch (error) {
        listener.retryFailed(error);
        retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
        scheduleReconnect();
      }
    }, retryMs);
    reconnectTimer.unref();
  }

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(reconnectTimer);
    const last = client;
    client = undefined;
    await last?.end().catch(() => {});
  };
}
