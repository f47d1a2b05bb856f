import { describe, expect, it } from 'vitest';
import type { NewMeasurement, StoredMeasurement } from '../../src/store/index.js';
import { postgresGroupCommit } from '../../src/store/postgres/group-commit.js';

/** A stand-in for the insert statement: numbers rows in order, refuses sensor 0, records each call's size. */
function fakeInsert(options: { failWith?: Error } = {}) {
  let nextId = 1;
  const calls: number[] = [];
  const release: (() => void)[] = [];
  async function insert(rows: readonly NewMeasurement[]): Promise<StoredMeasurement[]> {
    calls.push(rows.length);
    await new Promise<void>((resolve) => release.push(resolve));
    if (options.failWith) throw options.failWith;
    if (rows.some((r) => r.sensor_id === 0)) throw Object.assign(new Error('violates foreign key constraint'), { code: '23503' });
    return rows.map((r) => ({ ...r, measurement_id: nextId++ }));
  }
  /** Lets every insert under way finish, and then those they start, until none is left. */
  async function drain(): Promise<void> {
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      release.splice(0).forEach((go) => go());
    }
  }
  return { insert, calls, drain };
}

const row = (sensor_id: number, value: number): NewMeasurement => ({ sensor_id, value, timestamp: 1_000 + value });

describe('PostgreSQL group commit', () => {
  it('sends the first request alone and the ones that arrive meanwhile together', async () => {
    const fake = fakeInsert();
    const group = postgresGroupCommit(fake.insert, { maxInFlight: 1 });
    const first = group.insert([row(1, 1)]);
    const rest = Array.from({ length: 10 }, (_, i) => group.insert([row(2, 10 + i), row(3, 20 + i)]));
    await fake.drain();
    expect(fake.calls).toEqual([1, 20]);
    expect(await first).toEqual([{ ...row(1, 1), measurement_id: 1 }]);
    const answers = await Promise.all(rest);
    // Each request gets its own rows, in its order, with the ids they were stored under.
    answers.forEach((stored, i) => {
      expect(stored.map((m) => m.value)).toEqual([10 + i, 20 + i]);
      expect(stored.map((m) => m.measurement_id)).toEqual([2 + 2 * i, 3 + 2 * i]);
    });
  });

  it('keeps a combined insert within the row limit and the number under way within its limit', async () => {
    const fake = fakeInsert();
    const group = postgresGroupCommit(fake.insert, { maxInFlight: 2, maxRows: 5 });
    const all = Array.from({ length: 12 }, (_, i) => group.insert([row(1, i), row(1, 100 + i)]));
    expect(fake.calls).toEqual([2, 2]); // two under way; the others wait
    await fake.drain();
    await Promise.all(all);
    expect(fake.calls.every((n) => n <= 5)).toBe(true);
    expect(fake.calls.reduce((a, b) => a + b, 0)).toBe(24);
  });

  it('fails only the request with the faulty row: the others are inserted on their own', async () => {
    const fake = fakeInsert();
    const group = postgresGroupCommit(fake.insert, { maxInFlight: 1 });
    const first = group.insert([row(1, 1)]);
    const good = group.insert([row(1, 2), row(2, 3)]);
    const bad = group.insert([row(2, 4), row(0, 5)]);
    const alsoGood = group.insert([row(3, 6)]);
    const settled = Promise.allSettled([first, good, bad, alsoGood]);
    await fake.drain();
    const [a, b, c, d] = await settled;
    expect(a.status).toBe('fulfilled');
    expect(b.status === 'fulfilled' && b.value.map((m) => m.value)).toEqual([2, 3]);
    expect(c.status === 'rejected' && (c.reason as { code?: string }).code).toBe('23503');
    expect(d.status === 'fulfilled' && d.value.map((m) => m.value)).toEqual([6]);
    // Alone, then together (refused), then each on its own.
    expect(fake.calls).toEqual([1, 5, 2, 2, 1]);
  });

  it('fails every request of an insert the database could not answer, without trying again', async () => {
    const lost = Object.assign(new Error('Connection terminated unexpectedly'), { code: '08006' });
    const fake = fakeInsert({ failWith: lost });
    const group = postgresGroupCommit(fake.insert, { maxInFlight: 1 });
    const all = [group.insert([row(1, 1)]), group.insert([row(1, 2)]), group.insert([row(1, 3)])];
    const settled = Promise.allSettled(all);
    await fake.drain();
    expect((await settled).map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(fake.calls).toEqual([1, 2]);
  });
});
