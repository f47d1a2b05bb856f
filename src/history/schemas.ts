import { type Static, Type } from '@sinclair/typebox';
import { DateTimeInput, DateTimeOutput } from '../domain/schema-common.js';
import { MAX_BUCKETS } from '../domain/bucket-sizes.js';

export const AggregateQuery = Type.Object({
  bucket: Type.Optional(
    Type.String({
      description:
        'Bucket size, a duration: 5m, 1h, 1d, ISO 8601 (PT15M, P7D) or seconds (3600). Multiples of 5 minutes, 1 hour or 1 day ' +
        'are folded from the kept buckets of that size; any other size is computed from raw rows. Not with max_points. ' +
        'Months and years (P1M, P1Y) have no fixed length and are refused: give days (P30D).',
      examples: ['1h'],
    }),
  ),
  max_points: Type.Optional(
    Type.Integer({
      minimum: 2,
      maximum: MAX_BUCKETS,
      description: 'At most this many buckets; the service picks the size. Not with bucket.',
    }),
  ),
  time_delta: Type.Optional(
    Type.String({
      description: 'Duration. Alone: [now - time_delta, now]; with end_time: [end_time - time_delta, end_time). Not with start_time.',
    }),
  ),
  start_time: Type.Optional(DateTimeInput('Inclusive start of the window; unset: the start of the sensor’s history.')),
  end_time: Type.Optional(DateTimeInput('Exclusive end of the window; unset: the end of the sensor’s history.')),
});
export type AggregateQuery = Static<typeof AggregateQuery>;

export const AggregateBucket = Type.Object(
  {
    start: DateTimeOutput(),
    end: DateTimeOutput(),
    count: Type.Integer(),
    min: Type.Number(),
    max: Type.Number(),
    mean: Type.Number(),
    first: Type.Number({ description: 'The value of the earliest measurement of the bucket.' }),
    last: Type.Number({ description: 'The value of the latest measurement of the bucket.' }),
  },
  { title: 'AggregateBucket' },
);
export type AggregateBucket = Static<typeof AggregateBucket>;
