/**
 * A seeded random source (mulberry32) held as plain state, so that the tank model stays a pure
 * function: the same seed gives the same noise on every run and every machine.
 */
export type RandomState = number;

/** The next number in [0, 1) and the state after it. */
export function nextRandom(state: RandomState): [number, RandomState] {
  const next = (state + 0x6d2b79f5) | 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return [((t ^ (t >>> 14)) >>> 0) / 4294967296, next];
}

/** A number in [-amplitude, amplitude] and the state after it. */
export function nextNoise(state: RandomState, amplitude: number): [number, RandomState] {
  const [unit, next] = nextRandom(state);
  return [(unit * 2 - 1) * amplitude, next];
}
