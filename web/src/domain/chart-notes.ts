/**
 * Notes as marks on a chart (docs/api.md §15): where each falls along the time axis, and notes
 * too close to tell apart under one mark. Pure: the chart gives its plot's box and time scale.
 */
import type { Note } from '../api/records';

/** The chart's plotting area in CSS pixels within the chart element, and the seconds its x axis spans. */
export interface PlotBox {
  left: number;
  top: number;
  width: number;
  height: number;
  minSec: number;
  maxSec: number;
}

export interface NoteMark {
  /** Pixels from the chart element's left edge. */
  x: number;
  /** The notes under this mark, oldest first. */
  notes: Note[];
  /** Where the mark's text box starts, in pixels from the mark: it stays over the plot. */
  tipLeft: number;
  /** The text box's width in pixels: at most `TIP_PX`, at most the plot's width. */
  tipWidth: number;
  /** The flag hangs left of its line: to its right it would pass the plot's right edge. */
  flagLeft: boolean;
}

/** Marks closer than this (CSS pixels) share one: a finger cannot tell them apart, nor the flags (44 px to tap on a phone). */
export const MERGE_PX = 44;
/** The widest a flag's tap target is (on a phone). */
export const FLAG_PX = 44;
/** The widest a mark's text box is drawn. */
export const TIP_PX = 280;

/** The text box of a mark at `x`: starting at the mark when it fits, else moved left so as not to pass the plot's right edge. */
export function tipPlacement(x: number, box: Pick<PlotBox, 'left' | 'width'>, widest = TIP_PX): { tipLeft: number; tipWidth: number } {
  const tipWidth = Math.min(widest, box.width);
  const start = Math.max(box.left, Math.min(x, box.left + box.width - tipWidth));
  return { tipLeft: start - x, tipWidth };
}

/** The marks of the notes inside the plotted time span, left to right. */
export function noteMarks(notes: readonly Note[], box: PlotBox | null, mergePx = MERGE_PX): NoteMark[] {
  if (!box || !(box.maxSec > box.minSec) || box.width <= 0) return [];
  const placed = notes
    .map((note) => ({ note, sec: Date.parse(note.at) / 1000 }))
    .filter(({ sec }) => sec >= box.minSec && sec <= box.maxSec)
    .sort((a, b) => a.sec - b.sec);
  const marks: NoteMark[] = [];
  let first = Number.NEGATIVE_INFINITY;
  for (const { note, sec } of placed) {
    const x = box.left + ((sec - box.minSec) / (box.maxSec - box.minSec)) * box.width;
    const last = marks.at(-1);
    if (last && x - first < mergePx) {
      last.notes.push(note);
      continue;
    }
    first = x;
    marks.push({ x, notes: [note], ...tipPlacement(x, box), flagLeft: x + FLAG_PX > box.left + box.width });
  }
  return marks;
}

/** Whether two boxes draw the same: the chart re-renders its marks only when this is false. */
export function sameBox(a: PlotBox | null, b: PlotBox | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.left === b.left && a.top === b.top && a.width === b.width && a.height === b.height && a.minSec === b.minSec && a.maxSec === b.maxSec
  );
}
