import { describe, expect, it } from 'vitest';
import { settled } from '../../src/core/settled.js';

describe('settled', () => {
  it('waits for the work queued so far and for the work that work queued', async () => {
    const done: string[] = [];
    let chain: Promise<void> = Promise.resolve();
    const queue = (name: string, then?: () => void) => {
      chain = chain.then(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        done.push(name);
        then?.();
      });
    };
    queue('first', () => queue('queued by first'));
    queue('second');
    await settled(() => chain);
    expect(done).toEqual(['first', 'second', 'queued by first']);
  });

  it('resolves at once for a chain with nothing queued', async () => {
    const chain = Promise.resolve();
    await expect(settled(() => chain)).resolves.toBeUndefined();
  });
});
