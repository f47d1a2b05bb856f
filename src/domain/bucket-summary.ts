/**
 * What a history bucket keeps of the measurements it covers. Every field is decided by a total
 * order, so the summary of a set of measurements is the same whatever order they arrive in and
 * however they are grouped: merging is associative and commutative, which is what lets ingest
 * update a bucket incrementally, a larger bucket be folded from smaller ones, and a recomputation
 * from raw rows give exactly what the increments gave.
 *
 * - `min`: the lowest value; on a tie the earliest (timestamp, then id).
 * - `max`: the highest value; on a tie the earliest (timestamp, then id).
 * - `first` / `last`: the earliest / latest by (timestamp, id).
 */
export interface Point {
  id: number;
  ts: number;
  value: number;
}

export interface Summary {
  count: number;
  sum: number;
  min: Point;
  max: Point;
  first: Point;
  last: Point;
}

export interface MeasurementLike {
  measurement_id: number;
  value: number;
  timestamp: number;
}

const earlier = (a: Point, b: Point) => a.ts < b.ts || (a.ts === b.ts && a.id < b.id);
const lower = (a: Point, b: Point) => a.value < b.value || (a.value === b.value && earlier(a, b));
const higher = (a: Point, b: Point) => a.value > b.value || (a.value === b.value && earlier(a, b));

export function pointOf(m: MeasurementLike): Point {
  return { id: m.measurement_id, ts: m.timestamp, value: m.value };
}

export function summaryOf(m: MeasurementLike): Summary {
  return summaryOfPoint(pointOf(m));
}

/** The summary of the union of two disjoint sets of measurements. */
export function merge(a: Summary, b: Summary): Summary {
  return {
    count: a.count + b.count,
    sum: a.sum + b.sum,
    min: lower(b.min, a.min) ? b.min : a.min,
    max: higher(b.max, a.max) ? b.max : a.max,
    first: earlier(b.first, a.first) ? b.first : a.first,
    last: earlier(a.last, b.last) ? b.last : a.last,
  };
}

/** Merges `b` into `into` in place (`into` must not share its object with another summary). */
export function mergeInto(into: Summary, b: Summary): void {
  into.count += b.count;
  into.sum += b.sum;
  if (lower(b.min, into.min)) into.min = b.min;
  if (higher(b.max, into.max)) into.max = b.max;
  if (earlier(b.first, into.first)) into.first = b.first;
  if (earlier(into.last, b.last)) into.last = b.last;
}

/** Adds one measurement to a summary in place (the ingest and rebuild hot loop: no allocation per row but the point). */
export function add(into: Summary, m: MeasurementLike): void {
  addPoint(into, pointOf(m));
}

/** Adds one measurement's point in place: one point can be added to the summaries of every size without a copy. */
export function addPoint(into: Summary, p: Point): void {
  into.count += 1;
  into.sum += p.value;
  if (lower(p, into.min)) into.min = p;
  if (higher(p, into.max)) into.max = p;
  if (earlier(p, into.first)) into.first = p;
  if (earlier(into.last, p)) into.last = p;
}

/** The summary of one point (shared, never changed in place: summaries replace their points). */
export function summaryOfPoint(p: Point): Summary {
  return { count: 1, sum: p.value, min: p, max: p, first: p, last: p };
}
