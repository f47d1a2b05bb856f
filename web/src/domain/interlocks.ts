/** The interlocks of an actuator as a form edits them (docs/api.md §14): a sensor and two optional bounds. */
import type { InterlockInput } from '../api/types';
import { optionalText, parseOptionalNumbers } from './numbers';

/** At most this many interlocks per actuator (the service's MAX_INTERLOCKS). */
export const MAX_INTERLOCKS = 8;

export interface InterlockRow {
  sensor_id: number;
  block_below: string;
  block_above: string;
}

export function interlockRows(interlocks: readonly InterlockInput[]): InterlockRow[] {
  return interlocks.map((i) => ({
    sensor_id: i.sensor_id,
    block_below: optionalText(i.block_below),
    block_above: optionalText(i.block_above),
  }));
}

/**
 * The rows as the service takes them: an empty bound is null. A bound that is not a number is
 * reported (naming the row) and nothing is sent; a row with no bound at all, or crossed bounds,
 * the service refuses with its own words.
 */
export function parseInterlocks(rows: readonly InterlockRow[]): { interlocks: InterlockInput[]; error?: string } {
  const interlocks: InterlockInput[] = [];
  for (const [index, row] of rows.entries()) {
    const parsed = parseOptionalNumbers({ block_below: row.block_below, block_above: row.block_above });
    if (Object.keys(parsed.errors).length > 0) return { interlocks: [], error: `Interlock ${index + 1}: a bound is not a number` };
    interlocks.push({ sensor_id: row.sensor_id, ...parsed.values });
  }
  return { interlocks };
}
