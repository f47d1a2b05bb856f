import type { TimeWindow } from './time-window.js';

/**
 * Which records of one kind a page of a prototype's records reads, newest first: those whose time
 * lies in `window`, and, when `before` is given, only those that come after it in that order — an
 * earlier time, or the same time and a smaller id (keyset paging) — at most `limit`.
 */
export interface RecordPage {
  window: TimeWindow;
  before?: { at: number; id: number };
  limit: number;
}
