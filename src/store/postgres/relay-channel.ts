import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.js';
import type { RelayChannel, RelayListener } from '../store.js';

/** The channel every instance of one database listens on. */
export const CHANNEL = 'sensorhub_changes';
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5000;
/** The listening connection's name in `pg_stat_activity`, so operators can tell it from the pool's. */
export const RELAY_APPLICATION_NAME = 'sensorhub-relay';
/**
 * How often the listening connection is asked to answer, and how long it has to: a link that died
 * without a word (a cable, a firewall dropping state, a server frozen) is noticed within seconds,
 * not after the operating system's two hours of keepalive.
 */
export const HEARTBEAT_EVERY_MS = 2000;
export const HEARTBEAT_TIMEOUT_MS = 3000;

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

/** Rejects when `promise` has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Closes a client's socket at once: `end()` would wait for a server that may never answer. */
function destroy(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  void client.end().catch(() => {});
}

async function listenOn(databaseUrl: string, listener: RelayListener): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retryMs = RECONNECT_MIN_MS;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let beating = false;

  function received(message: pg.Notification): void {
    if (message.channel === CHANNEL && message.payload !== undefined) listener.message(message.payload);
  }

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: databaseUrl,
      keepAlive: true,
      application_name: RELAY_APPLICATION_NAME,
      connectionTimeoutMillis: HEARTBEAT_TIMEOUT_MS,
    });
    next.on('notification', received);
    const lost = () => {
      if (client !== next) return;
      client = undefined;
      destroy(next);
      scheduleReconnect();
    };
    next.on('error', (error) => {
      listener.failed(error);
      lost();
    });
    next.on('end', lost);
    try {
      await within(next.connect(), HEARTBEAT_TIMEOUT_MS, 'connecting to listen');
      await within(next.query(`LISTEN ${CHANNEL}`), HEARTBEAT_TIMEOUT_MS, 'LISTEN');
    } catch (error) {
      destroy(next);
      throw error;
    }
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

  /** Asks the listening connection to answer; one that does not in time is taken as lost. */
  async function beat(): Promise<void> {
    const current = client;
    if (!current || beating) return;
    beating = true;
    try {
      await within(current.query('select 1'), HEARTBEAT_TIMEOUT_MS, 'the relay heartbeat');
    } catch (error) {
      if (client === current && !stopped) {
        listener.failed(error);
        client = undefined;
        destroy(current);
        scheduleReconnect();
      }
    } finally {
      beating = false;
    }
  }

  await connect();
  const heartbeat = setInterval(() => void beat(), HEARTBEAT_EVERY_MS);
  heartbeat.unref();
  return async () => {
    stopped = true;
    clearInterval(heartbeat);
    clearTimeout(reconnectTimer);
    const last = client;
    client = undefined;
    await last?.end().catch(() => {});
  };
}
