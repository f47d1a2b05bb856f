import { describe, expect, it } from 'vitest';
import { sharedCapture } from '../../src/picture/cache.js';

describe('sharedCapture', () => {
  it('shares one capture among concurrent requests and serves it until it expires', async () => {
    let captures = 0;
    let clock = 0;
    const cache = sharedCapture(async () => {
      captures++;
      await new Promise((r) => setTimeout(r, 10));
      return `frame ${captures}`;
    }, 2000, () => clock);
    const results = await Promise.all(Array.from({ length: 20 }, () => cache.get()));
    expect(new Set(results)).toEqual(new Set(['frame 1']));
    expect(captures).toBe(1);
    clock = 1999;
    expect(await cache.get()).toBe('frame 1');
    clock = 2000;
    expect(await cache.get()).toBe('frame 2');
  });

  it('does not keep a failure: the next request tries again', async () => {
    let attempts = 0;
    const cache = sharedCapture(async () => {
      attempts++;
      if (attempts === 1) throw new Error('camera busy');
      return 'frame';
    }, 2000);
    const first = await Promise.allSettled([cache.get(), cache.get()]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(attempts).toBe(1);
    expect(await cache.get()).toBe('frame');
  });

  it('forgets the cached value when invalidated', async () => {
    let n = 0;
    const cache = sharedCapture(async () => ++n, 60_000);
    expect(await cache.get()).toBe(1);
    cache.invalidate();
    expect(await cache.get()).toBe(2);
  });
});
