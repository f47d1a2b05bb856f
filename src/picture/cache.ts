export interface SharedCaptureOptions {
  /** How long a picture is served to everyone asking. */
  ttlMs: number;
  /**
   * How long a failure is answered without asking the camera again: short, so a camera that comes
   * back is seen quickly, but long enough that a dead camera is not asked by every request.
   */
  failureTtlMs: number;
  now?: () => number;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * A capture shared by everyone who asks: a result is served for `ttlMs` (a failure for
 * `failureTtlMs`), and while a capture is under way every request waits for that one — twenty
 * dashboards cause one camera capture, and there is never more than one capture in flight.
 */
export function sharedCapture<T>(capture: () => Promise<T>, options: SharedCaptureOptions) {
  const now = options.now ?? Date.now;
  let kept: { outcome: Outcome<T>; until: number } | undefined;
  let inFlight: Promise<T> | undefined;
  // Bumped by invalidate(): a capture started before it must not be kept after it.
  let generation = 0;

  const keep = (outcome: Outcome<T>, ttl: number, started: number) => {
    if (started === generation && ttl > 0) kept = { outcome, until: now() + ttl };
  };

  return {
    get(): Promise<T> {
      if (kept && now() < kept.until) {
        const { outcome } = kept;
        return outcome.ok ? Promise.resolve(outcome.value) : Promise.reject(outcome.error);
      }
      kept = undefined;
      if (inFlight) return inFlight;
      const started = generation;
      const current: Promise<T> = capture().then(
        (value) => {
          keep({ ok: true, value }, options.ttlMs, started);
          return value;
        },
        (error: unknown) => {
          keep({ ok: false, error }, Math.min(options.failureTtlMs, options.ttlMs), started);
          throw error;
        },
      );
      inFlight = current;
      // Only the capture that is still the current one may clear the slot (an invalidated one may
      // finish after its successor started).
      const clear = () => {
        if (inFlight === current) inFlight = undefined;
      };
      current.then(clear, clear);
      return current;
    },

    /** Forgets the kept result and any capture under way (a new picture was uploaded). */
    invalidate(): void {
      kept = undefined;
      inFlight = undefined;
      generation++;
    },
  };
}
