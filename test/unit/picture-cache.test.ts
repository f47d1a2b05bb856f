import { describe, expect, it } from 'vitest';
import { sharedCapture } from '../../src/picture/cache.js';

/** A capture that finishes when the test says so, counting how often it was started. */
function controlledCapture<T>() {
  const pending: { resolve: (v: T) => void; reject: (e: unknown) => void }[] = [];
  const capture = () => new Promise<T>((resolve, reject) => pending.push({ resolve, reject }));
  return {
    capture,
    pending,
    get started() {
      return pending.length;
    },
  };
}

describe('sharedCapture', () => {
  it('shares one capture among concurrent requests and serves it until it expires', async () => {
    let captures = 0;
    let clock = 0;
    const cache = sharedCapture(
      async () => {
        captures++;
        await new Promise((r) => setTimeout(r, 10));
        return `frame ${captures}`;
      },
      { ttlMs: 2000, failureTtlMs: 1000, now: () => clock },
    );
    const results = await Promise.all(Array.from({ length: 20 }, () => cache.get()));
    expect(new Set(results)).toEqual(new Set(['frame 1']));
    expect(captures).toBe(1);
    clock = 1999;
    expect(await cache.get()).toBe('frame 1');
    clock = 2000;
    expect(await cache.get()).toBe('frame 2');
    expect(captures).toBe(2);
  });

  it('keeps a failure only for the short failure time, shared by everyone waiting', async () => {
    let attempts = 0;
    let clock = 0;
    const cache = sharedCapture(
      async () => {
        attempts++;
        if (attempts <= 2) throw new Error(`camera busy ${attempts}`);
        return 'frame';
      },
      { ttlMs: 5000, failureTtlMs: 1000, now: () => clock },
    );
    const first = await Promise.allSettled([cache.get(), cache.get(), cache.get()]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(attempts).toBe(1);
    clock = 999;
    await expect(cache.get()).rejects.toThrow('camera busy 1');
    expect(attempts).toBe(1);
    clock = 1000;
    await expect(cache.get()).rejects.toThrow('camera busy 2');
    clock = 2000;
    expect(await cache.get()).toBe('frame');
    expect(attempts).toBe(3);
  });

  it('keeps a failure no longer than a success: with no caching, every request after a failure tries again', async () => {
    let attempts = 0;
    const cache = sharedCapture(
      async () => {
        attempts++;
        throw new Error('down');
      },
      { ttlMs: 0, failureTtlMs: 1000, now: () => 0 },
    );
    await expect(cache.get()).rejects.toThrow('down');
    await expect(cache.get()).rejects.toThrow('down');
    expect(attempts).toBe(2);
  });

  it('with no caching still shares the capture in flight', async () => {
    const camera = controlledCapture<string>();
    const cache = sharedCapture(camera.capture, { ttlMs: 0, failureTtlMs: 0 });
    const waiting = [cache.get(), cache.get(), cache.get()];
    expect(camera.started).toBe(1);
    camera.pending[0].resolve('frame');
    expect(await Promise.all(waiting)).toEqual(['frame', 'frame', 'frame']);
    cache.get();
    expect(camera.started).toBe(2);
  });

  it('forgets the kept value when invalidated', async () => {
    let n = 0;
    const cache = sharedCapture(async () => ++n, { ttlMs: 60_000, failureTtlMs: 1000 });
    expect(await cache.get()).toBe(1);
    expect(await cache.get()).toBe(1);
    cache.invalidate();
    expect(await cache.get()).toBe(2);
  });

  it('does not keep a capture that was under way when invalidated, and never runs two captures at once', async () => {
    const camera = controlledCapture<string>();
    const cache = sharedCapture(camera.capture, { ttlMs: 60_000, failureTtlMs: 1000 });
    const old = cache.get();
    cache.invalidate();
    const fresh = cache.get();
    expect(camera.started).toBe(2);
    // The invalidated capture finishing must not free the slot of the one under way.
    camera.pending[0].resolve('old frame');
    expect(await old).toBe('old frame');
    const alsoFresh = cache.get();
    expect(camera.started).toBe(2);
    camera.pending[1].resolve('new frame');
    expect(await fresh).toBe('new frame');
    expect(await alsoFresh).toBe('new frame');
    expect(await cache.get()).toBe('new frame');
    expect(camera.started).toBe(2);
  });
});
