import type { IPublishPacket } from 'mqtt';
import { parseDateTime } from '../domain/date-time.js';
import type { MeasurementBase } from '../domain/measurement.js';
import { InvalidInput, NotFound } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { isDiskFull, isStoreUnavailable, type Store } from '../store/index.js';
import { type Backoff, backoffDelay } from './backoff.js';
import type { MqttServices } from './deps.js';
import { measurementBodyCheck } from './check.js';
import type { MqttMetrics, RefusalKind } from './metrics.js';
import { oversizeReason, parseMeasurementPayload } from './payload.js';
import { together } from './together.js';
import { addressOf } from './topics.js';

/** A write the store could not make for a while: tried again, the message held unacknowledged meanwhile. */
const STORE_RETRY: Backoff = { minMs: 100, maxMs: 5000, jitter: 0.2 };
/** An unexpected failure is tried this many times, then the message is reported and let go, so it cannot stall the rest. */
const UNEXPECTED_ATTEMPTS = 5;

/**
 * Why a retained message is not taken: the broker hands it to every new subscription again, so
 * storing it would store it again at each start of the service.
 */
const RETAINED_REASON =
  'a retained message is not stored (the broker replays it at every subscription); publish measurements and activations without the retain flag';

/** Thrown to a message still waiting for the store when the link closes: it stays unacknowledged. */
export class IngestStopped extends Error {}

export interface IngestDeps {
  prefix: string;
  services: MqttServices;
  store: Pick<Store, 'measurements'>;
  metrics: MqttMetrics;
  /** A message acknowledged without storing it: published on `<prefix>/errors` and logged. */
  refuse(topic: string, payload: Buffer, reason: string, kind: RefusalKind): void;
  log: Logger;
  random?: () => number;
}

/** Measurements are one message's all-or-nothing write: present in full, or not at all. */
async function alreadyStored(store: IngestDeps['store'], sensorId: number, items: readonly MeasurementBase[]): Promise<boolean> {
  const times = items.map((item) => (item.timestamp === undefined ? NaN : parseDateTime(item.timestamp)));
  if (times.some((t) => Number.isNaN(t))) return false;
  const start = Math.min(...times);
  const end = Math.max(...times) + 1;
  const found = new Set<string>();
  for await (const page of store.measurements.walkWindow(sensorId, { start, end, endInclusive: false })) {
    for (const row of page) found.add(`${row.timestamp}:${row.value}`);
  }
  return items.every((item, index) => found.has(`${times[index]}:${item.value}`));
}

/**
 * What happens to each message received on the subscribed topics: measurements go through the
 * same schema check and service as `POST /measurements` (so the same group commit); an
 * activation through the same service as `PATCH …/last_activated`. The promise resolves when the
 * message may be acknowledged: committed, found already committed, or refused (and reported).
 */
export function mqttIngest(deps: IngestDeps) {
  const { prefix, services, store, metrics, refuse, log, random = Math.random } = deps;
  const check = measurementBodyCheck();
  let stopped = false;

  /**
   * Messages waiting out the store. Each connection has many messages in hand: when the store goes
   * away they all wait, and only the first of them says so in the log.
   */
  let waiting = 0;

  /** Runs a write, waiting out a store that is away; a refusal of the input is returned as such. */
  async function commit(topic: string, write: () => Promise<unknown>): Promise<{ refused: RefusalKind; reason: string } | undefined> {
    let unexpected = 0;
    let attempt = 0;
    try {
      for (; ; attempt++) {
        if (stopped) throw new IngestStopped();
        try {
          await write();
          return undefined;
        } catch (error) {
          if (error instanceof NotFound) return { refused: 'unknown', reason: error.message };
          if (error instanceof InvalidInput) return { refused: 'validation', reason: error.issues.map((i) => i.msg).join('; ') };
          // A full disk is waited out like a store that is away: the message stays unacknowledged
          // (the broker keeps it) until space is freed, never let go as a faulty one.
          const diskFull = isDiskFull(error);
          if (!diskFull && !isStoreUnavailable(error) && ++unexpected >= UNEXPECTED_ATTEMPTS) {
            log.error({ err: error, topic }, 'MQTT message could not be stored; let go after repeated failures');
            return { refused: 'internal', reason: 'the service failed to store it (see its log)' };
          }
          if (attempt === 0 && waiting++ === 0) {
            log.warn(
              { err: error, topic },
              diskFull ? 'MQTT message waits for space on the disk: it is full' : 'MQTT message waits for the store',
            );
          }
          await new Promise((resolve) => setTimeout(resolve, backoffDelay(STORE_RETRY, attempt, random())));
        }
      }
    } finally {
      if (attempt > 0) waiting--;
    }
  }

  type Refusal = Awaited<ReturnType<typeof commit>>;
  /** A message of one measurement. */
  interface Reading {
    topic: string;
    items: MeasurementBase[];
  }

  /**
   * The single measurements of the messages taken in one turn go in with one call of the
   * service: one request of the group commit and one change on the bus instead of one each.
   * Should that call fail (a sensor deleted, a value refused, the store away), each message's goes
   * in alone, so only the faulty one is refused and each waits out the store for itself.
   */
  const recordOne = together<Reading, Refusal>(
    (readings) => {
      if (stopped) return Promise.reject(new IngestStopped());
      return services.measurements.record(
        readings.map((reading) => reading.items[0]),
        true,
      );
    },
    (reading) => commit(reading.topic, () => services.measurements.record(reading.items, false)),
    undefined,
  );

  async function measurements(topic: string, payload: Buffer, packet: IPublishPacket, sensorId: number): Promise<void> {
    const parsed = parseMeasurementPayload(sensorId, payload);
    if (!parsed.ok) return refuse(topic, payload, parsed.reason, 'payload');
    const checked = check(parsed.body, parsed.batch);
    if (!checked.ok) return refuse(topic, payload, checked.reason, 'validation');
    const { items, batch } = checked;
    // A message the broker delivers again (DUP) may have been committed before the acknowledgement
    // was lost (a crash between the two): one whose timestamps and values are all stored already is
    // not stored twice. Without timestamps nothing tells a repetition from a new reading.
    if (packet.dup && (await alreadyStored(store, sensorId, items).catch(() => false))) {
      metrics.duplicate();
      return;
    }
    const refusal = batch ? await commit(topic, () => services.measurements.record(items, batch)) : await recordOne({ topic, items });
    if (refusal) return refuse(topic, payload, refusal.reason, refusal.refused);
    metrics.stored();
  }

  async function activated(topic: string, payload: Buffer, actuatorId: number): Promise<void> {
    const refusal = await commit(topic, () => services.actuators.markActivated(actuatorId));
    if (refusal) return refuse(topic, payload, refusal.reason, refusal.refused);
    metrics.stored();
  }

  return {
    async receive(topic: string, payload: Buffer, packet: IPublishPacket): Promise<void> {
      metrics.received();
      const address = addressOf(prefix, topic);
      if (address.kind === 'measurements' || address.kind === 'activated') {
        // The subscriptions take no retained message at subscribing, and keep the retain flag of
        // those published live (see the link): either kind is let go here, never stored.
        if (packet.retain) return refuse(topic, payload, RETAINED_REASON, 'retained');
        const oversize = oversizeReason(payload);
        if (oversize) return refuse(topic, payload, oversize, 'payload');
      }
      switch (address.kind) {
        case 'measurements':
          return measurements(topic, payload, packet, address.sensorId);
        case 'activated':
          return activated(topic, payload, address.actuatorId);
        case 'bad-id':
          return refuse(topic, payload, address.reason, 'topic');
        default:
          return refuse(topic, payload, 'not a topic the service takes messages on', 'topic');
      }
    },
    stop(): void {
      stopped = true;
    },
  };
}
