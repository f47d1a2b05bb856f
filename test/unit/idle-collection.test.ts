import { constants, PerformanceObserver } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import {
  GROWN_BYTES,
  type HeapProbe,
  idleCollection,
  processProbe,
  QUIET_UTILIZATION,
  YOUNG_BYTES,
} from '../../src/cli/idle-collection.js';

const MB = 1024 * 1024;

/**
 * A heap and a loop the test sets; a collection brings the heap back to `live` and the young
 * generation to `youngAfter` (V8 shrinks it when the allocation rate is low).
 */
function fakeProbe(start: number) {
  const state = { used: start, live: start, young: 1 * MB, youngAfter: 1 * MB, utilization: 0, collections: 0 };
  const probe: HeapProbe = {
    utilization: () => state.utilization,
    usedBytes: () => state.used,
    youngBytes: () => state.young,
    collect: () => {
      state.collections += 1;
      state.used = state.live;
      state.young = state.youngAfter;
    },
  };
  return { state, check: idleCollection(probe) };
}

describe('a full collection once the service is quiet', () => {
  it('collects when the loop is quiet and the heap grew by the margin since the last collection, then counts from there', () => {
    const { state, check } = fakeProbe(20 * MB);
    state.used = 20 * MB + GROWN_BYTES;
    expect(check()).toBe(true);
    expect(state.collections).toBe(1);
    // Back at 20 MB: the next growth is counted from there.
    state.used = 20 * MB + GROWN_BYTES - 1;
    expect(check()).toBe(false);
    state.used = 20 * MB + GROWN_BYTES;
    expect(check()).toBe(true);
    expect(state.collections).toBe(2);
  });

  it('leaves a heap that grew by less than the margin', () => {
    const { state, check } = fakeProbe(20 * MB);
    state.used = 20 * MB + GROWN_BYTES - 1;
    expect(check()).toBe(false);
    expect(state.collections).toBe(0);
  });

  it('leaves a busy loop to V8, at and above the quiet bound, and collects once it is quiet again', () => {
    const { state, check } = fakeProbe(20 * MB);
    state.used = 30 * MB;
    state.utilization = QUIET_UTILIZATION;
    expect(check()).toBe(false);
    state.utilization = 0.9;
    expect(check()).toBe(false);
    expect(state.collections).toBe(0);
    state.utilization = QUIET_UTILIZATION - 0.001;
    expect(check()).toBe(true);
    expect(state.collections).toBe(1);
  });

  it('counts the growth from a collection V8 made on its own', () => {
    const { state, check } = fakeProbe(25 * MB);
    // V8 collected meanwhile: the heap is below where the last check left it.
    state.used = 21 * MB;
    expect(check()).toBe(false);
    state.live = 21 * MB;
    state.used = 21 * MB + GROWN_BYTES;
    expect(check()).toBe(true);
    // From 25 MB it would not have grown enough.
    expect(state.collections).toBe(1);
  });
});

describe('the young generation shrunk once the service is quiet', () => {
  it('collects when the loop is quiet and the young generation grew above its bound, the heap not grown', () => {
    const { state, check } = fakeProbe(20 * MB);
    state.young = 32 * MB;
    expect(check()).toBe(true);
    expect(state.collections).toBe(1);
    // Shrunk back to 1 MB: nothing more to do.
    expect(check()).toBe(false);
    expect(state.collections).toBe(1);
  });

  it('leaves a young generation at the bound, and collects just above it', () => {
    const { state, check } = fakeProbe(20 * MB);
    state.young = YOUNG_BYTES;
    expect(check()).toBe(false);
    state.young = YOUNG_BYTES + 1;
    expect(check()).toBe(true);
  });

  it('leaves a grown young generation alone while the loop is busy', () => {
    const { state, check } = fakeProbe(20 * MB);
    state.young = 32 * MB;
    state.utilization = QUIET_UTILIZATION;
    expect(check()).toBe(false);
    expect(state.collections).toBe(0);
    state.utilization = 0;
    expect(check()).toBe(true);
  });

  it('does not collect again and again for a young generation V8 kept: only when it grows past what the last collection left', () => {
    const { state, check } = fakeProbe(20 * MB);
    state.young = 16 * MB;
    state.youngAfter = 8 * MB;
    expect(check()).toBe(true);
    expect(state.young).toBe(8 * MB);
    expect(check()).toBe(false);
    expect(check()).toBe(false);
    state.young = 16 * MB;
    state.youngAfter = 1 * MB;
    expect(check()).toBe(true);
    expect(state.collections).toBe(2);
  });
});

describe('a young generation grown by a busy stretch, in this process', () => {
  it('is shrunk by the full collection made once allocation has stopped', async () => {
    const probe = processProbe();
    let kept: unknown[] = [];
    // Allocation that survives a scavenge or two grows the young generation.
    for (let round = 0; round < 400 && probe.youngBytes() <= YOUNG_BYTES; round++) {
      for (let i = 0; i < 5_000; i++) kept.push({ i, text: `reading ${i}` });
      if (kept.length > 50_000) kept = kept.slice(25_000);
    }
    expect(probe.youngBytes()).toBeGreaterThan(YOUNG_BYTES);
    kept.length = 0;
    // V8 shrinks the young generation in a collection made while its allocation rate is low; in a
    // test worker shared with other files, the rate may take a few quiet seconds more to fall.
    for (let attempt = 0; attempt < 6 && !(probe.youngBytes() <= YOUNG_BYTES); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      probe.collect();
    }
    expect(probe.youngBytes()).toBeLessThanOrEqual(YOUNG_BYTES);
  }, 60_000);
});

describe('the probe of this process', () => {
  it('collects the whole heap: a forced full collection, not a young one', async () => {
    const forced: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const { kind, flags } = (entry as unknown as { detail: { kind: number; flags: number } }).detail;
        if (flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) forced.push(kind);
      }
    });
    observer.observe({ entryTypes: ['gc'] });
    try {
      const probe = processProbe();
      expect(probe.usedBytes()).toBeGreaterThan(0);
      const utilization = probe.utilization();
      expect(utilization).toBeGreaterThanOrEqual(0);
      expect(utilization).toBeLessThanOrEqual(1);
      probe.collect();
      // GC entries are delivered after the collection, on a later turn of the loop.
      const deadline = Date.now() + 10_000;
      while (forced.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      // Every forced collection is a full one (another of this worker's may land in the same window).
      expect(forced.length).toBeGreaterThan(0);
      expect(new Set(forced)).toEqual(new Set([constants.NODE_PERFORMANCE_GC_MAJOR]));
    } finally {
      observer.disconnect();
    }
  });
});
