import { type Static, Type } from '@sinclair/typebox';
import { grouped } from './grouped.js';
import { DateTimeInput, DateTimeOutput, Id } from './schema-common.js';

/** The largest deviation_rate taken: with it every step of the generated walk stays far from overflowing. */
export const MAX_DEVIATION_RATE = 100;

export const MAX_BATCH = 10_000;
/** The most points a downsampled window answers with: its answer is built in memory. */
export const MAX_POINTS = 100_000;

export const MeasurementBase = Type.Object(
  {
    sensor_id: Id('The sensor; a numeric string is accepted.'),
    value: Type.Number({ description: 'Finite; stored as a double, not rounded.' }),
    timestamp: Type.Optional(
      DateTimeInput('When it was measured; default the time of receipt. Without an offset it is UTC. At most 5 minutes in the future.'),
    ),
  },
  { title: 'MeasurementBase' },
);
export type MeasurementBase = Static<typeof MeasurementBase>;

export const MeasurementBody = Type.Union([MeasurementBase, Type.Array(MeasurementBase, { minItems: 1, maxItems: MAX_BATCH })], {
  description: `One measurement, or an array of 1..${MAX_BATCH} (all or nothing).`,
});

export const Measurement = Type.Object(
  {
    measurement_id: Type.Integer(),
    sensor_id: Type.Integer(),
    value: Type.Number(),
    timestamp: DateTimeOutput(),
  },
  { title: 'Measurement' },
);
export type Measurement = Static<typeof Measurement>;

export const SensorIdParams = Type.Object({ sensor_id: Id() });
export const MeasurementIdParams = Type.Object({ measurement_id: Id() });

const windowFields = {
  start_time: Type.Optional(DateTimeInput('Inclusive start of the window.')),
  end_time: Type.Optional(DateTimeInput('Exclusive end of the window.')),
};

export const WindowQuery = Type.Object({
  time_delta: Type.Optional(
    Type.String({
      description:
        'Duration: ISO 8601 (P7D, PT2H30M), the Python forms (07d,00:00:00, 1 day, 02:00:00, 02:00:00, 1d) or seconds (3600). ' +
        'Alone: [now - time_delta, now]; with end_time: [end_time - time_delta, end_time). Not with start_time. ' +
        'At most the span of the years 1 to 9999, and the window must start in the year 1 or later (422 otherwise).',
      examples: ['P7D'],
    }),
  ),
  ...windowFields,
  max_points: Type.Optional(
    Type.Integer({
      minimum: 2,
      maximum: MAX_POINTS,
      description: `At most this many points (2 to ${grouped(MAX_POINTS)}), keeping each time bucket’s minimum and maximum.`,
    }),
  ),
});
export type WindowQuery = Static<typeof WindowQuery>;

export const ExportQuery = Type.Object({
  sensor_id: Type.Optional(Type.Array(Id(), { description: 'Only these sensors (repeatable).' })),
  prototype_id: Type.Optional(Id('Only the sensors of this prototype.')),
  ...windowFields,
});
export type ExportQuery = Static<typeof ExportQuery>;

const ratio = (def: number, description: string) => Type.Number({ minimum: 0, maximum: 1, default: def, description });

export const RandomMeasurements = Type.Object(
  {
    nb_measurements: Type.Integer({
      minimum: 1,
      maximum: 2_000_000,
      default: 500,
      description: 'Rounded up to a multiple of the number of sensors.',
    }),
    yearly_measurements_ratio: ratio(0.8, 'Share placed at random times within the last year.'),
    dayly_measurements_ratio: ratio(0.1, 'Share placed within the last day.'),
    hourly_measurements_ratio: ratio(0.1, 'Share placed within the last hour.'),
    deviation_rate: Type.Number({
      minimum: 0,
      maximum: MAX_DEVIATION_RATE,
      default: 0.2,
      description: `Standard deviation of a step as a share of the critical range, 0 to ${MAX_DEVIATION_RATE}. Generated values are always finite.`,
    }),
    smoothing_factor: ratio(0.5, 'Exponential smoothing of the walk.'),
    drift_adjustment: ratio(0.15, 'Pull toward the middle of the critical range.'),
    replace: Type.Boolean({
      default: true,
      description:
        "Delete the existing measurements first (in the same transaction): every one, or with prototype_id those of that prototype's sensors.",
    }),
    prototype_id: Type.Optional(
      Id('Only the sensors of this prototype (it must exist, else 422); left out: every sensor of every prototype.'),
    ),
  },
  { title: 'RandomMeasurements' },
);
export type RandomMeasurements = Static<typeof RandomMeasurements>;

export const RandomResult = Type.Object({ message: Type.String(), generated: Type.Integer(), deleted: Type.Integer() });
