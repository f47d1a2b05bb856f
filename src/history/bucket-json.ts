import { isoOf } from '../domain/date-time.js';

/** One answered bucket: [start, end) and what it holds. */
export interface AggregateBucket {
  start: number;
  end: number;
  count: number;
  min: number;
  max: number;
  mean: number;
  first: number;
  last: number;
}

/**
 * A bucket as JSON text, the same as the response schema writes it (values are always finite):
 * the history service answers and keeps its days as this text, ready to send.
 */
export const aggregateBucketJson = (b: AggregateBucket) =>
  `{"start":"${isoOf(b.start)}","end":"${isoOf(b.end)}","count":${b.count},"min":${b.min},"max":${b.max},"mean":${b.mean},"first":${b.first},"last":${b.last}}`;
