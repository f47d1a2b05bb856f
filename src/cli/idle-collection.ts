import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How often the heap and the event loop are looked at. */
export const IDLE_CHECK_MS = 10_000;
/** The loop counts as quiet below this share of busy time over the last check. */
export const QUIET_UTILIZATION = 0.05;
/** What the heap must have grown by since the last full collection before one is worth its pause. */
export const GROWN_BYTES = 2 * 1024 * 1024;

export interface HeapProbe {
  /** The event loop's busy share since the last call (0..1). */
  utilization(): number;
  /** Bytes in the JavaScript heap now, garbage included. */
  usedBytes(): number;
  /** A full collection. */
  collect(): void;
}

/**
 * V8 collects its old generation once the heap has grown by a margin over what survived the last
 * full collection, and a service that then falls quiet keeps that margin: measured on the
 * footprint bench, an hour with two sensors out of range left 6–9 MB more than at start, still
 * held a minute into the quiet. Checked every IDLE_CHECK_MS: once the loop is quiet and the heap
 * has grown by GROWN_BYTES since the last full collection, one is made, so the service at rest
 * holds what it uses plus at most that. Under load the loop is not quiet and V8 schedules its own.
 * Returns whether it collected.
 */
export function idleCollection(probe: HeapProbe): () => boolean {
  let afterCollection = probe.usedBytes();
  return () => {
    const used = probe.usedBytes();
    // A collection of V8's own lowered the heap since: the growth counts from there.
    afterCollection = Math.min(afterCollection, used);
    if (probe.utilization() >= QUIET_UTILIZATION || used - afterCollection < GROWN_BYTES) return false;
    probe.collect();
    afterCollection = probe.usedBytes();
    return true;
  };
}

/** The probe of this process: the collection through V8's `gc`, exposed for this alone. */
export function processProbe(): HeapProbe {
  setFlagsFromString('--expose-gc');
  // The flag exposes `gc` in contexts made from now on; one is made to fetch it.
  // Called without options: a full collection (this V8 answered `{ type: 'major', execution: 'sync' }` with a young one).
  const gc = runInNewContext('gc') as () => void;
  let last = performance.eventLoopUtilization();
  return {
    utilization() {
      const now = performance.eventLoopUtilization();
      const { utilization } = performance.eventLoopUtilization(now, last);
      last = now;
      return utilization;
    },
    usedBytes: () => getHeapStatistics().used_heap_size,
    collect: () => gc(),
  };
}

/** Starts the checks in this process; they never keep it alive. Returns what stops them. */
export function collectWhenIdle(everyMs = IDLE_CHECK_MS): () => void {
  const check = idleCollection(processProbe());
  const timer = setInterval(check, everyMs).unref();
  return () => clearInterval(timer);
}
