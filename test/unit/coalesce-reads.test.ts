import { describe, expect, it } from 'vitest';
import { coalesceReads } from '../../src/store/postgres/coalesce-reads.js';

/** A stand-in for a query: answers the value the "database" holds when the read starts, once released. */
function fakeDatabase() {
  const values = new Map<number, number>();
  const started: number[] = [];
  const pending: (() => void)[] = [];
  const read = (key: number) => {
    started.push(key);
    const seen = values.get(key);
    return new Promise<number | undefined>((resolve, reject) =>
      pending.push(() => (seen === -1 ? reject(new Error('gone')) : resolve(seen))),
    );
  };
  const releaseAll = async () => {
    for (let i = 0; i < 10 && pending.length > 0; i++) {
      pending.splice(0).forEach((go) => go());
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { values, started, read, releaseAll };
}

describe('coalesced reads', () => {
  it('lets reads that arrive while one is under way share the next one, never the one under way', async () => {
    const db = fakeDatabase();
    const read = coalesceReads(db.read);
    db.values.set(1, 10);
    const first = read(1);
    // A commit lands after the first read started; these arrive after it, so they must see it.
    db.values.set(1, 11);
    const later = [read(1), read(1), read(1)];
    expect(db.started).toEqual([1]);
    await db.releaseAll();
    expect(await first).toBe(10);
    expect(await Promise.all(later)).toEqual([11, 11, 11]);
    expect(db.started).toEqual([1, 1]); // four requests, two queries
  });

  it('keeps keys apart and reads again once nothing is under way', async () => {
    const db = fakeDatabase();
    const read = coalesceReads(db.read);
    db.values.set(1, 10);
    db.values.set(2, 20);
    const both = Promise.all([read(1), read(2)]);
    await db.releaseAll();
    expect(await both).toEqual([10, 20]);
    db.values.set(1, 12);
    const again = read(1);
    await db.releaseAll();
    expect(await again).toBe(12);
    expect(db.started).toEqual([1, 2, 1]);
  });

  it('passes a failed read to every request that shared it, and the next ones read afresh', async () => {
    const db = fakeDatabase();
    const read = coalesceReads(db.read);
    db.values.set(1, -1);
    const failed = Promise.allSettled([read(1)]);
    const shared = Promise.allSettled([read(1), read(1)]);
    await db.releaseAll();
    expect((await failed).map((r) => r.status)).toEqual(['rejected']);
    expect((await shared).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    db.values.set(1, 5);
    const recovered = read(1);
    await db.releaseAll();
    expect(await recovered).toBe(5);
  });

  it('turns a read that throws into a failed answer', async () => {
    const read = coalesceReads((_key: number): Promise<number> => {
      throw new Error('no connection');
    });
    await expect(read(1)).rejects.toThrow('no connection');
    await expect(read(1)).rejects.toThrow('no connection');
  });
});
