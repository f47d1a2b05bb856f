import { describe, expect, it } from 'vitest';
import { controllerContact, FLUSH_EVERY_MS } from '../../src/actuators/controller-contact.js';
import { changeBus } from '../../src/core/bus.js';
import type { Store } from '../../src/store/index.js';
import { manualTimers } from '../helpers/manual-timers.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const silent = { info() {}, warn() {}, error() {}, debug() {} } as never;

/**
 * The controllers' contacts (actuators/controller-contact.ts) are noted in memory on every poll
 * and written in batches: each batch holds every actuator heard since the last one, once, with
 * its latest contact; a batch that could not be written goes into the next one.
 */
function contactOnStore() {
  const clock = { now: NOW as number | undefined };
  const manual = manualTimers(clock);
  const written: Map<number, number>[] = [];
  const store = { failing: 0 };
  const fakeStore = {
    actuators: {
      all: async () => [],
      notePolled: async (polls: ReadonlyMap<number, number>) => {
        written.push(new Map(polls));
      },
    },
    transaction: async <T>(work: (tx: unknown) => Promise<T>) => {
      if (store.failing > 0) {
        store.failing--;
        throw new Error('database is locked');
      }
      return work(fakeStore);
    },
  } as unknown as Pick<Store, 'actuators' | 'transaction'>;
  const contact = controllerContact({ store: fakeStore, bus: changeBus(), now: () => clock.now!, timers: manual.timers, log: silent });
  /** Moves the clock, rings the alarms due, and lets a batch under way finish. */
  const advanceTo = async (time: number) => {
    manual.advanceTo(time);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { contact, clock, manual, written, store, advanceTo };
}

describe('controller contact: polls noted in memory, written in batches', () => {
  it('writes every actuator heard since the last batch once, with its latest contact, FLUSH_EVERY_MS after the first', async () => {
    const { contact, clock, manual, written, advanceTo } = contactOnStore();
    contact.heardFrom(1);
    expect(manual.due()).toEqual([NOW + FLUSH_EVERY_MS]);
    clock.now = NOW + 1000;
    contact.heardFrom(2);
    clock.now = NOW + 2000;
    contact.heardFrom(1);
    contact.heardFrom(1);
    expect(manual.due()).toEqual([NOW + FLUSH_EVERY_MS]);
    expect(contact.lastPolled({ actuator_id: 1, last_polled: null })).toBe(NOW + 2000);
    await advanceTo(NOW + FLUSH_EVERY_MS);
    expect(written).toEqual([
      new Map([
        [1, NOW + 2000],
        [2, NOW + 1000],
      ]),
    ]);
    // Nothing heard since: no batch, and no alarm.
    expect(manual.due()).toEqual([]);
    clock.now = NOW + 20_000;
    contact.heardFrom(2);
    await advanceTo(NOW + 20_000 + FLUSH_EVERY_MS);
    expect(written[1]).toEqual(new Map([[2, NOW + 20_000]]));
  });

  it('puts a batch that could not be written into the next one, with the contacts heard meanwhile', async () => {
    const { contact, clock, manual, written, store, advanceTo } = contactOnStore();
    contact.heardFrom(1);
    contact.heardFrom(2);
    store.failing = 1;
    await advanceTo(NOW + FLUSH_EVERY_MS);
    expect(written).toEqual([]);
    expect(manual.due()).toEqual([NOW + 2 * FLUSH_EVERY_MS]);
    clock.now = NOW + 15_000;
    contact.heardFrom(2);
    contact.heardFrom(3);
    await advanceTo(NOW + 2 * FLUSH_EVERY_MS);
    expect(written).toEqual([
      new Map([
        [1, NOW],
        [2, NOW + 15_000],
        [3, NOW + 15_000],
      ]),
    ]);
  });

  it('keeps the later of the stored last_polled and the contact noted here', () => {
    const { contact } = contactOnStore();
    expect(contact.lastPolled({ actuator_id: 1, last_polled: NOW - 5 })).toBe(NOW - 5);
    contact.heardFrom(1);
    expect(contact.lastPolled({ actuator_id: 1, last_polled: NOW - 5 })).toBe(NOW);
    expect(contact.lastPolled({ actuator_id: 1, last_polled: NOW + 5 })).toBe(NOW + 5);
    expect(contact.lastPolled({ actuator_id: 1, last_polled: null })).toBe(NOW);
  });

  it('writes what is noted when stopped', async () => {
    const { contact, written } = contactOnStore();
    contact.heardFrom(4);
    await contact.stop();
    expect(written).toEqual([new Map([[4, NOW]])]);
  });
});
