/**
 * Every instant the service takes or computes lies within the years 1 to 9999 (UTC): what ISO 8601
 * writes with four digits, and what both stores hold the same way (PostgreSQL would take year 0
 * and earlier, but as BC dates that do not read back as written).
 */
export const EARLIEST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z');
export const LATEST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** The longest duration that fits between two such instants. */
export const LONGEST_DURATION = LATEST_INSTANT - EARLIEST_INSTANT;

export const isWithinYears = (ms: number) => ms >= EARLIEST_INSTANT && ms <= LATEST_INSTANT;
