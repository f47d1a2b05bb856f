import type { TimeWindow } from '../../domain/time-window.js';
import { measurementJson } from '../../domain/measurement-json.js';
import type { StoredMeasurement } from '../database.js';
import type { SqliteReader } from './reader.js';

/** A window of more rows than this is streamed page by page, never held as one text. */
export const MAX_WINDOW_ROWS = 20_000;
/** The texts kept, all sensors together, at most (the oldest entries go first). */
export const MAX_KEPT_CHARS = 4 * 1024 * 1024;

/**
 * What a read of a window left: the JSON texts of every row of a sensor from `from` (inclusive) up
 * to `upTo` (exclusive: the timestamp of the first row after the window read, Infinity when there
 * is none), one after the other, each followed by a comma; the rows' timestamps and where each
 * text starts. Any window inside [from, upTo) is then one slice of that text.
 */
interface Kept {
  from: number;
  upTo: number;
  timestamps: Float64Array;
  /** Where each row's text starts in `text`; one more at the end, the text's length. */
  offsets: Uint32Array;
  text: string;
}

/** The first index whose timestamp is at or after `at` (`after`: strictly after). */
function bound(timestamps: Float64Array, at: number, after: boolean): number {
  let low = 0;
  let high = timestamps.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (timestamps[mid] < at || (after && timestamps[mid] === at)) low = mid + 1;
    else high = mid;
  }
  return low;
}

export interface WindowTextGuard {
  /** False while the kept texts cannot be trusted for a read (see the hot cache); drops them when another connection committed. */
  usable(): boolean;
  /** Calls `listener` whenever everything kept must be forgotten. */
  onDropAll(listener: () => void): void;
}

/**
 * A sensor's window as JSON text, kept in memory from the last read of it: dashboards ask for the
 * same window again and again (its end moving with the clock), and between two commits to the
 * sensor the answer is a slice of the text already written — no row read, no object per row.
 * Invalidation is the hot cache's (`guard`): every write this process makes drops what it
 * touches (the group commit tells which sensors; any other write drops everything), and another
 * program's commit drops everything before the next read.
 */
export function sqliteWindowText(reader: SqliteReader, guard: WindowTextGuard) {
  const kept = new Map<number, Kept>();
  let keptChars = 0;

  function forget(sensorId: number): void {
    const entry = kept.get(sensorId);
    if (!entry) return;
    kept.delete(sensorId);
    keptChars -= entry.text.length;
  }
  function forgetAll(): void {
    kept.clear();
    keptChars = 0;
  }
  guard.onDropAll(forgetAll);

  function sliceOf(entry: Kept, window: TimeWindow): string {
    const first = window.start === undefined ? 0 : bound(entry.timestamps, window.start, false);
    const end = window.end === undefined ? entry.timestamps.length : bound(entry.timestamps, window.end, window.endInclusive);
    if (end <= first) return '[]';
    // Less the comma after the last row.
    return `[${entry.text.slice(entry.offsets[first], entry.offsets[end] - 1)}]`;
  }

  function covers(entry: Kept, window: TimeWindow): boolean {
    const start = window.start ?? -Infinity;
    const end = window.end ?? Infinity;
    return start >= entry.from && (window.endInclusive ? end < entry.upTo : end <= entry.upTo);
  }

  function keep(sensorId: number, entry: Kept): void {
    if (entry.text.length > MAX_KEPT_CHARS) return;
    forget(sensorId);
    for (const [id, old] of kept) {
      if (keptChars + entry.text.length <= MAX_KEPT_CHARS) break;
      kept.delete(id);
      keptChars -= old.text.length;
    }
    kept.set(sensorId, entry);
    keptChars += entry.text.length;
  }

  return {
    /** The window's JSON text when the last read of the sensor covers it and nothing was written since; else undefined. */
    cached(sensorId: number, window: TimeWindow): string | undefined {
      if (!guard.usable()) return undefined;
      const entry = kept.get(sensorId);
      return entry && covers(entry, window) ? sliceOf(entry, window) : undefined;
    },

    /**
     * The window's JSON text read from the store, kept for the next reads; undefined when it holds
     * more than MAX_WINDOW_ROWS rows (the caller streams it page by page).
     */
    read(sensorId: number, window: TimeWindow): string | undefined {
      // Checked before the rows are read: a commit after the check is seen by the next one.
      const keepable = guard.usable();
      const rows = reader.windowPage(sensorId, window, undefined, MAX_WINDOW_ROWS + 1);
      if (rows.length > MAX_WINDOW_ROWS) return undefined;
      const timestamps = new Float64Array(rows.length);
      const offsets = new Uint32Array(rows.length + 1);
      let text = '';
      for (let i = 0; i < rows.length; i++) {
        timestamps[i] = rows[i].timestamp;
        offsets[i] = text.length;
        text += measurementJson(rows[i]) + ',';
      }
      offsets[rows.length] = text.length;
      const upTo = window.end === undefined ? Infinity : (reader.nextTimestamp(sensorId, window.end, window.endInclusive) ?? Infinity);
      const entry: Kept = { from: window.start ?? -Infinity, upTo, timestamps, offsets, text };
      if (keepable) keep(sensorId, entry);
      return sliceOf(entry, window);
    },

    /** Measurements this process has just committed: their sensors' texts are forgotten. */
    committed(rows: readonly StoredMeasurement[]): void {
      if (kept.size === 0) return;
      for (const row of rows) forget(row.sensor_id);
    },

    forgetAll,
  };
}

export type SqliteWindowText = ReturnType<typeof sqliteWindowText>;
