/**
 * A capture shared by everyone who asks: a result is served for `ttlMs`, and while a capture is
 * under way every request waits for that one — twenty dashboards cause one camera capture. A
 * failed capture is shared by the requests that waited for it but not kept: the next request
 * tries again.
 */
export function sharedCapture<T>(capture: () => Promise<T>, ttlMs: number, now: () => number = Date.now) {
  let cached: { value: T; at: number } | undefined;
  let inFlight: Promise<T> | undefined;
  let generation = 0;

  return {
    get(): Promise<T> {
      if (cached && now() - cached.at < ttlMs) return Promise.resolve(cached.value);
      if (inFlight) return inFlight;
      const started = generation;
      const at = now();
      inFlight = capture()
        .then((value) => {
          if (started === generation) cached = { value, at };
          return value;
        })
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },

    /** Forgets the cached result (a new picture was uploaded). */
    invalidate(): void {
      cached = undefined;
      inFlight = undefined;
      generation++;
    },
  };
}
