import { describe, expect, it } from 'vitest';
import { together } from '../../src/mqtt/together.js';

describe('work of one turn done together', () => {
  /** Answers 'together' for a piece done in a call for all, and 'alone n' for one done alone. */
  const counted = () => {
    const calls: number[][] = [];
    const run = together(
      async (inputs: number[]) => calls.push(inputs),
      async (input: number) => `alone ${input}`,
      'together',
    );
    return { calls, run };
  };

  it('does what was asked in one turn in one call, and each piece is answered', async () => {
    const { calls, run } = counted();
    const answers = await Promise.all([run(1), run(2), run(3)]);
    expect(answers).toEqual(['together', 'together', 'together']);
    expect(calls).toEqual([[1, 2, 3]]);
    // A later turn is a call of its own.
    await Promise.all([run(4), run(5)]);
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('does a piece alone when it is the only one of its turn', async () => {
    const { calls, run } = counted();
    expect(await run(7)).toBe('alone 7');
    expect(calls).toEqual([]);
  });

  it('does each piece alone when the call for all fails, each with its own outcome', async () => {
    const alone: number[] = [];
    const run = together(
      async () => {
        throw new Error('one of them is bad');
      },
      async (input: number) => {
        alone.push(input);
        if (input === 2) throw new Error(`bad ${input}`);
        return `alone ${input}`;
      },
      'together',
    );
    const answers = await Promise.allSettled([run(1), run(2), run(3)]);
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as Error).message))).toEqual(['alone 1', 'bad 2', 'alone 3']);
    expect(alone).toEqual([1, 2, 3]);
  });
});
