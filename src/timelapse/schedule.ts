/**
 * A timelapse's frames are slots on a fixed grid: slot n is due at start + n × frequency, for every
 * slot due before the end (start + duration). A frame belongs to the slot whose period it is taken
 * in, so a late frame never moves the ones after it.
 */
export interface FrameGrid {
  startMs: number;
  frequencyMs: number;
  durationMs: number;
}

/** How many slots the grid holds: those due before the end. */
export function slotCount(grid: FrameGrid): number {
  return Math.ceil(grid.durationMs / grid.frequencyMs);
}

/** When slot n is due. */
export function slotDue(grid: FrameGrid, slot: number): number {
  return grid.startMs + slot * grid.frequencyMs;
}

export function endOf(grid: FrameGrid): number {
  return grid.startMs + grid.durationMs;
}

/** The slot whose period holds `now` (0 before the start). */
export function slotAt(grid: FrameGrid, now: number): number {
  return Math.max(0, Math.floor((now - grid.startMs) / grid.frequencyMs));
}

/**
 * The next slot to take once every slot before `from` is accounted for: `from` itself while its
 * period lasts, else the slot now under way. Those passed over in between are missed.
 */
export function nextSlot(grid: FrameGrid, from: number, now: number): { slot: number; missed: number } {
  const slot = Math.max(from, slotAt(grid, now));
  return { slot, missed: Math.min(slot, slotCount(grid)) - Math.min(from, slotCount(grid)) };
}
