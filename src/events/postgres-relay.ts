import { noteView } from '../domain/note.js';
import type { RelayChannel, Store } from '../store/index.js';
import type { ChangeBus, Changes, Topic } from '../core/bus.js';
import { type Notification, packPayloads, parsePayload, type RelayRecord, recordsOf } from './relay-codec.js';

const RELAYED = [
  'measurements',
  'measurementDeleted',
  'generated',
  'prototype',
  'sensor',
  'actuator',
  'dose',
  'controller',
  'alert',
  'note',
  'tokensRevoked',
] as const satisfies readonly Exclude<Topic, 'decision'>[];

/** The changes published here on behalf of another instance (see `isRelayed`). */
const relayedChanges = new WeakSet<object>();

/**
 * True for a change another instance committed and this one only replays: work that one instance
 * should do per change (evaluating alerts) is left to the instance that committed it.
 */
export function isRelayed(change: object): boolean {
  return relayedChanges.has(change);
}

export interface RelayDeps {
  /** The store's channel to the other instances. */
  channel: RelayChannel;
  store: Pick<Store, 'measurements' | 'notes'>;
  bus: ChangeBus;
  instance: string;
  log: { warn(details: object, message: string): void; info(details: object, message: string): void };
  /** Called after the listening connection was lost and is back: changes may have been missed. */
  onGap(): void;
  /** Called when the listening connection fails or stops answering: changes are being missed. */
  onLost?(): void;
}

/**
 * Several instances on one PostgreSQL database behave as one: every change committed here is
 * sent on the store's relay channel (`NOTIFY`, after its commit, in commit order), and the
 * changes other instances committed arrive through it (`LISTEN`) and are published on this
 * instance's bus as if made here. An instance skips its own notifications, which it has already
 * published.
 */
export function postgresRelay({ channel, store, bus, instance, log, onGap, onLost }: RelayDeps) {
  let pending: RelayRecord[] = [];
  let sending: Promise<void> | undefined;
  /** True while a change from another instance is being published: it is not sent back out. */
  let replaying = false;
  let stopListening: (() => Promise<void>) | undefined;
  let stopped = false;
  /** Notifications are applied one after the other, as they were committed. */
  let applying: Promise<void> = Promise.resolve();
  const unsubscribe: (() => void)[] = [];

  async function send(): Promise<void> {
    // One statement at a time, from one queue: notifications leave in the order of the commits.
    while (pending.length > 0) {
      const records = pending;
      pending = [];
      for (const payload of packPayloads(instance, records)) {
        try {
          await channel.publish(payload);
        } catch (error) {
          log.warn({ err: error }, 'could not relay committed changes to the other instances');
        }
      }
    }
    sending = undefined;
  }

  function relay<T extends (typeof RELAYED)[number]>(topic: T, change: Changes[T]): void {
    if (replaying || stopped) return;
    pending.push(...recordsOf(topic, change));
    // Changes committed in the same turn share the statement.
    sending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(send);
  }

  function publish<T extends Topic>(topic: T, change: Changes[T]): void {
    relayedChanges.add(change);
    replaying = true;
    try {
      bus.publish(topic, change);
    } finally {
      replaying = false;
    }
  }

  async function apply({ records }: Notification): Promise<void> {
    for (const record of records) {
      if (record.topic === 'measurements') {
        const rows = await store.measurements.readBack(record);
        if (rows.length > 0) publish('measurements', { rows });
      } else if (record.topic === 'noteRef') {
        // Gone since (deleted): the delete follows.
        const note = await store.notes.get(record.noteId);
        if (note) publish('note', { action: record.action, note: noteView(note) });
      } else {
        publish(record.topic, record.change as never);
      }
    }
  }

  function received(payload: string): void {
    const notification = parsePayload(payload);
    if (!notification || notification.origin === instance) return;
    applying = applying
      .then(() => apply(notification))
      .catch((error: unknown) => log.warn({ err: error }, 'could not apply changes relayed from another instance'));
  }

  return {
    async start(): Promise<void> {
      for (const topic of RELAYED) unsubscribe.push(bus.subscribe(topic, (change) => relay(topic, change as never)));
      stopListening = await channel.listen({
        message: received,
        failed: (error) => {
          onLost?.();
          log.warn({ err: error }, 'the connection listening for other instances’ changes failed');
        },
        retryFailed: (error) => log.warn({ err: error }, 'could not listen for other instances’ changes; trying again'),
        restored: () => {
          log.info({}, 'listening for other instances’ changes again');
          onGap();
        },
      });
    },

    async stop(): Promise<void> {
      stopped = true;
      for (const stop of unsubscribe) stop();
      await sending;
      await stopListening?.();
    },
  };
}
