import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { MAX_SETTING_SECONDS } from './bounds.js';
import { MAX_CALIBRATION_INTERVAL_DAYS } from './calibration.js';
import { DateTimeOutput, Id, StringEnum, withoutMaxima } from './schema-common.js';

export const SENSOR_TYPES = ['temperature', 'humidity', 'ec', 'ph', 'water_level', 'boolean_water_level', 'oxygen'] as const;
export const SensorType = StringEnum(SENSOR_TYPES);
export type SensorType = Static<typeof SensorType>;

const sensorFields = {
  sensor_type: SensorType,
  prototype_id: Id('The prototype the sensor belongs to; it must exist.'),
  sensor_unit: Type.String({ minLength: 1, maxLength: 32, examples: ['pH', 'mS/cm', 'Celsius'] }),
  threshold_critically_low: Type.Number(),
  threshold_low: Type.Number(),
  threshold_high: Type.Number(),
  threshold_critically_high: Type.Number(),
};

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The settings that decide whether a reading can be trusted (docs/api.md §14); each null by default. */
const trustFields = {
  valid_min: nullable(
    Type.Number({ description: "Readings below it are invalid (stored, but never make a pump run). Null: the type's default." }),
  ),
  valid_max: nullable(
    Type.Number({ description: "Readings above it are invalid (stored, but never make a pump run). Null: the type's default." }),
  ),
  stale_after: nullable(
    Type.Number({
      minimum: 0,
      maximum: MAX_SETTING_SECONDS,
      description: `Seconds after which the newest reading is too old to act on (at most ${MAX_SETTING_SECONDS}, a year). Null: STALE_AFTER.`,
    }),
  ),
  stuck_after: nullable(
    Type.Number({
      minimum: 0,
      maximum: MAX_SETTING_SECONDS,
      description: `Seconds the same exact value (at least 3 readings) may repeat before the sensor counts as stuck (at most ${MAX_SETTING_SECONDS}, a year). Null: off.`,
    }),
  ),
};

/** What a grower calls the sensor (docs/api.md §5), shown where "pH #4" was; null: no name. */
const nameFields = {
  sensor_name: nullable(Type.String({ minLength: 1, maxLength: 100, description: 'A name to show instead of "pH #4"; null: none.' })),
};

/** The calibration reminder (docs/api.md §15): a setting the grower writes. */
const calibrationFields = {
  calibration_interval: nullable(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: MAX_CALIBRATION_INTERVAL_DAYS,
      description: `Days between calibrations (more than 0, at most ${MAX_CALIBRATION_INTERVAL_DAYS}); past due raises a calibration_due alert. Null: no reminder.`,
    }),
  ),
};

/** What the service keeps of the calibrations (docs/api.md §15): read-only. */
const calibrationState = {
  calibrated_at: Type.Union([DateTimeOutput('When the newest accepted calibration was made.'), Type.Null()], {
    description: 'Null until a calibration is accepted.',
  }),
  calibration_due: Type.Union([DateTimeOutput(), Type.Null()], {
    description:
      'When the next calibration falls due: calibrated_at + calibration_interval; never calibrated, the moment the interval was ' +
      'set (due at once). Null without an interval.',
  }),
};

export const SensorBase = Type.Object(
  { ...sensorFields, ...Type.Partial(Type.Object({ ...nameFields, ...trustFields, ...calibrationFields })).properties },
  {
    title: 'SensorBase',
    description: 'Thresholds must satisfy critically_low ≤ low ≤ high ≤ critically_high; valid_min ≤ valid_max when both are set.',
  },
);
export type SensorBase = Static<typeof SensorBase>;

export const Sensor = Type.Object(
  {
    ...sensorFields,
    ...nameFields,
    ...withoutMaxima(trustFields),
    ...withoutMaxima(calibrationFields),
    ...calibrationState,
    sensor_id: Id('Assigned by the service.'),
  },
  { title: 'Sensor' },
);
export type Sensor = Static<typeof Sensor>;

export const SensorPatch = Type.Object(
  { sensor_id: Id(), ...Type.Partial(Type.Object({ ...sensorFields, ...nameFields, ...trustFields, ...calibrationFields })).properties },
  {
    title: 'SensorPatch',
    description:
      'A sensor_id and any subset of the SensorBase fields; the others keep their value. The rules are checked on the merged result.',
  },
);
export type SensorPatch = Static<typeof SensorPatch>;
