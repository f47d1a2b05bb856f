import { describe, expect, it } from 'vitest';
import { addPoint, type Point, summaryOfPoint } from '../../src/domain/bucket-summary.js';
import { POINT_ORDERS } from '../../src/store/history-sql.js';

/** A small deterministic generator: the same points every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** The first of `points` in `order`, as the SQL written from POINT_ORDERS picks it. */
function firstIn(points: readonly Point[], order: (typeof POINT_ORDERS)[keyof typeof POINT_ORDERS]): Point {
  return [...points].sort((a, b) => {
    for (const [field, direction] of order) {
      if (a[field] !== b[field]) return (a[field] < b[field] ? -1 : 1) * (direction === 'asc' ? 1 : -1);
    }
    return 0;
  })[0];
}

describe('the point orders the bucket SQL is written from', () => {
  it('pick the points the reference summary picks, ties of value and of time included', () => {
    const next = random(7);
    for (let round = 0; round < 200; round++) {
      // Few values and few instants: most points tie with another on value, on time, or on both.
      const points: Point[] = Array.from({ length: 1 + Math.floor(next() * 12) }, () => ({
        id: Math.floor(next() * 1000),
        ts: Math.floor(next() * 4) * 1000,
        value: Math.floor(next() * 3) - 1,
      }));
      const unique = points.filter((p, i) => points.findIndex((q) => q.id === p.id) === i);
      const summary = summaryOfPoint(unique[0]);
      for (const p of unique.slice(1)) addPoint(summary, p);
      for (const name of ['min', 'max', 'first', 'last'] as const) expect(firstIn(unique, POINT_ORDERS[name])).toBe(summary[name]);
    }
  });
});
