import { type Static, Type } from '@sinclair/typebox';
import { DateTimeInput, DateTimeOutput } from '../domain/schema-common.js';
import { MAX_VOLUME_ML } from '../domain/bounds.js';

export const DoseTotalsQuery = Type.Object({
  bucket: Type.Optional(
    Type.String({
      description: 'The bucket: 1h (UTC hours) or 1d (UTC days, the default); PT1H, P1D, 3600 and 86400 say the same.',
      examples: ['1d'],
    }),
  ),
  time_delta: Type.Optional(
    Type.String({
      description: 'Duration. Alone: [now - time_delta, now]; with end_time: [end_time - time_delta, end_time). Not with start_time.',
    }),
  ),
  start_time: Type.Optional(DateTimeInput('Only doses at or after this instant; unset: from the first.')),
  end_time: Type.Optional(DateTimeInput('Only doses before this instant; unset: up to the last.')),
});
export type DoseTotalsQuery = Static<typeof DoseTotalsQuery>;

export const DoseTotals = Type.Object(
  {
    start: DateTimeOutput('The bucket’s start, on a UTC hour or midnight.'),
    end: DateTimeOutput('The bucket’s end (exclusive).'),
    doses: Type.Integer({ description: 'Doses recorded in the bucket (and in the window).' }),
    seconds: Type.Number({ description: 'Their run time, seconds.' }),
    volume_ml: Type.Union([Type.Number(), Type.Null()], {
      description: 'Their volume, millilitres, from the doses that have one (recorded with a flow); null when none has.',
    }),
  },
  { title: 'DoseTotals' },
);
export type DoseTotals = Static<typeof DoseTotals>;

export const RefillBody = Type.Object(
  {
    stock_ml: Type.Number({
      minimum: 0,
      maximum: MAX_VOLUME_ML,
      description: `What the bottle holds now, millilitres (0 to ${MAX_VOLUME_ML}): it replaces stock_ml.`,
    }),
  },
  { title: 'Refill' },
);
export type RefillBody = Static<typeof RefillBody>;
