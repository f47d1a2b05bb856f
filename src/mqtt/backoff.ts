/** Reconnection delays: from `minMs`, doubling per failed attempt up to `maxMs`, each spread by ±`jitter` so instances do not reconnect in step. */
export interface Backoff {
  minMs: number;
  maxMs: number;
  jitter: number;
}

export const BROKER_BACKOFF: Backoff = { minMs: 500, maxMs: 30_000, jitter: 0.2 };

/** The delay before attempt `failures + 1`; `random` in [0, 1). */
export function backoffDelay({ minMs, maxMs, jitter }: Backoff, failures: number, random: number): number {
  const base = Math.min(maxMs, minMs * 2 ** Math.min(failures, 30));
  return Math.max(1, Math.round(base * (1 - jitter + 2 * jitter * random)));
}
