import { performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How often the heap and the event loop are looked at. */
export const IDLE_CHECK_MS = 10_000;
/** The loop counts as quiet below this share of busy time over the last check. */
export const QUIET_UTILIZATION = 0.05;
/** What the heap must have grown by since the last full collection before one is worth its pause. */
export const GROWN_BYTES = 2 * 1024 * 1024;
/**
 * A young generation above this size was grown by a busy stretch (V8 starts it at 1 MB and grows
 * it to 32 MB under load); a full collection while the allocation rate is low shrinks it back.
 */
export const YOUNG_BYTES = 2 * 1024 * 1024;

export interface HeapProbe {
  /** The event loop's busy share since the last call (0..1). */
  utilization(): number;
  /** Bytes in the JavaScript heap now, garbage included. */
  usedBytes(): number;
  /** Bytes the young generation (V8's new space) holds reserved now. */
  youngBytes(): number;
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
 *
 * The young generation is left at V8's size under load (a young generation held at 1 MB halves the
 * throughput of every allocating path); once the loop is quiet, a young generation grown above
 * YOUNG_BYTES (and above what the last collection left) is a reason to collect too: V8 shrinks it
 * in a collection made while the allocation rate is low, which gives back up to 30 MB.
 * Returns whether it collected.
 */
export function idleCollection(probe: HeapProbe): () => boolean {
  let afterCollection = probe.usedBytes();
  let youngAfterCollection = 0;
  return () => {
    const used = probe.usedBytes();
    // A collection of V8's own lowered the heap since: the growth counts from there.
    afterCollection = Math.min(afterCollection, used);
    if (probe.utilization() >= QUIET_UTILIZATION) return false;
    const young = probe.youngBytes();
    const youngGrown = young > YOUNG_BYTES && young > youngAfterCollection;
    if (used - afterCollection < GROWN_BYTES && !youngGrown) return false;
    probe.collect();
    afterCollection = probe.usedBytes();
    youngAfterCollection = probe.youngBytes();
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
    youngBytes: () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0,
    collect: () => gc(),
  };
}

/** Starts the checks in this process; they never keep it alive. Returns what stops them. */
export function collectWhenIdle(everyMs = IDLE_CHECK_MS): () => void {
  const check = idleCollection(processProbe());
  const timer = setInterval(check, everyMs).unref();
  return () => clearInterval(timer);
}
