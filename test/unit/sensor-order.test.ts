import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sensorOrder } from '../../src/store/sqlite/sensor-order.js';

const rowsOf = (sensorIds: number[]) => sensorIds.map((sensor_id) => ({ sensor_id }));

describe('sensorOrder', () => {
  it('leaves rows already grouped by sensor as they are', () => {
    expect(sensorOrder(rowsOf([]))).toBeUndefined();
    expect(sensorOrder(rowsOf([4]))).toBeUndefined();
    expect(sensorOrder(rowsOf([1, 1, 1]))).toBeUndefined();
    expect(sensorOrder(rowsOf([3, 3, 1, 2, 2]))).toBeUndefined();
  });

  it('groups interleaved sensors, the sensors in the order they first appear, each one’s rows in their order', () => {
    expect([...sensorOrder(rowsOf([1, 2, 3, 1, 2, 3, 1]))!]).toEqual([0, 3, 6, 1, 4, 2, 5]);
    expect([...sensorOrder(rowsOf([5, 2, 5]))!]).toEqual([0, 2, 1]);
  });

  it('places every row once, grouped, keeping each sensor’s rows in order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 200 }), (sensorIds) => {
        const rows = rowsOf(sensorIds);
        const order = sensorOrder(rows);
        const places = order ? [...order] : sensorIds.map((_, i) => i);
        expect([...places].sort((a, b) => a - b)).toEqual(sensorIds.map((_, i) => i));
        const inOrder = places.map((i) => sensorIds[i]);
        // Grouped: a sensor, once left, never comes back.
        const runs = inOrder.filter((id, i) => i === 0 || inOrder[i - 1] !== id);
        expect(new Set(runs).size).toBe(runs.length);
        // In the order the sensors first appear, and each sensor's rows in their own order.
        expect(runs).toEqual([...new Set(sensorIds)]);
        for (const id of new Set(sensorIds)) {
          const mine = places.filter((i) => sensorIds[i] === id);
          expect(mine).toEqual([...mine].sort((a, b) => a - b));
        }
      }),
      { numRuns: 300 },
    );
  });
});
