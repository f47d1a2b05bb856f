import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { MAX_FLOW_ML_PER_S, MAX_LOCKOUT_COUNT, MAX_SETTING_SECONDS, MAX_VOLUME_ML } from './bounds.js';
import { DateTimeInput, DateTimeOutput, Id, MAX_ID, StringEnum, withoutMaxima } from './schema-common.js';

export const PUMP_TYPES = ['acid_pump', 'base_pump', 'nutrients_A_pump', 'nutrients_B_pump'] as const;
/** Outputs that run on a timetable (`activation_condition: "schedule"`) rather than on a reading. */
export const TIMED_TYPES = ['light', 'irrigation_pump', 'valve', 'fan', 'heater'] as const;
export const ACTUATOR_TYPES = [...PUMP_TYPES, ...TIMED_TYPES] as const;
export const ACTIVATION_CONDITIONS = ['high', 'low', 'low_or_high', 'always', 'schedule'] as const;
/** Where the pump's controller is told to act: it polls the state over HTTP, or follows the MQTT state topic. */
export const CONTROLLERS = ['http', 'mqtt'] as const;
export type ControllerKind = (typeof CONTROLLERS)[number];
export type ActuatorType = (typeof ACTUATOR_TYPES)[number];
export type ActivationCondition = (typeof ACTIVATION_CONDITIONS)[number];

const actuatorFields = {
  actuator_type: StringEnum(ACTUATOR_TYPES),
  sensor_id: Id('The sensor whose newest value decides; it must exist.'),
  condition_value: Type.Number(),
  activation_condition: StringEnum(
    ACTIVATION_CONDITIONS,
    'high: v > condition_value; low: v < condition_value; low_or_high: v ≠ condition_value; always; schedule: on the ' +
      "actuator's schedule, whatever the reading. With a setpoint, high/low/low_or_high read setpoint ± band instead.",
  ),
  activation_period: Type.Number({
    minimum: 0,
    maximum: MAX_SETTING_SECONDS,
    description: `Seconds to wait after an activation before the next (at most ${MAX_SETTING_SECONDS}, a year).`,
  }),
  activation_duration: Type.Number({
    minimum: 0,
    maximum: MAX_SETTING_SECONDS,
    description: `Seconds the pump runs when activated (at most ${MAX_SETTING_SECONDS}, a year).`,
  }),
  actuator_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  controller: Type.Optional(
    StringEnum(
      CONTROLLERS,
      'Where the controller is told to run (default http): http — it polls GET /actuators/{id}/state, the only read that ' +
        'claims a dose; mqtt — it follows the MQTT state topic, which then carries activate: true only for a claim committed for it.',
    ),
  ),
};

const nullable = <T extends TSchema>(schema: T, description?: string) => Type.Union([schema, Type.Null()], { description });
/** A setting in seconds: 0 to a year. */
const Seconds = (description: string) =>
  Type.Number({ minimum: 0, maximum: MAX_SETTING_SECONDS, description: `${description} At most ${MAX_SETTING_SECONDS} (a year).` });

/** At most this many interlocks per actuator (docs/api.md §14). */
export const MAX_INTERLOCKS = 8;

/** An interlock as a client sends it: a bound left out is null. */
export const InterlockInput = Type.Object(
  {
    sensor_id: Id('The sensor whose newest reading may block the pump; it must exist.'),
    block_below: Type.Optional(nullable(Type.Number({ description: 'The pump is blocked while the reading is below this.' }))),
    block_above: Type.Optional(nullable(Type.Number({ description: 'The pump is blocked while the reading is above this.' }))),
  },
  {
    title: 'InterlockInput',
    description:
      'At least one bound; block_below ≤ block_above when both are set. The pump is also blocked while that sensor has no reading, or a stale, invalid or stuck one.',
  },
);
export type InterlockInput = Static<typeof InterlockInput>;

export const Interlock = Type.Object(
  { sensor_id: Id(), block_below: nullable(Type.Number()), block_above: nullable(Type.Number()) },
  { title: 'Interlock' },
);
export type Interlock = Static<typeof Interlock>;

/** Millilitres: at most MAX_VOLUME_ML, so that every sum of doses stays finite. */
const Volume = (description: string, exclusiveMinimum: boolean) =>
  Type.Number({
    ...(exclusiveMinimum ? { exclusiveMinimum: 0 } : { minimum: 0 }),
    maximum: MAX_VOLUME_ML,
    description: `${description} At most ${MAX_VOLUME_ML} ml.`,
  });
const Positive = (description: string) => Volume(description, true);
const NonNegative = (description: string) => Volume(description, false);

/** A grower's volumes and bottle (docs/api.md §15), optional on create and patch. */
const volumeFields = {
  flow_ml_per_s: nullable(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: MAX_FLOW_ML_PER_S,
      description: `Millilitres the pump moves per second of run (> 0, at most ${MAX_FLOW_ML_PER_S}): a dose's volume is its duration × this. Null: unknown.`,
    }),
  ),
  max_ml_per_day: nullable(
    Positive(
      'The volume of the doses in any rolling 24 h, this one included, stays at or under it (> 0; needs flow_ml_per_s). Null: no limit.',
    ),
  ),
  stock_ml: nullable(
    NonNegative(
      "Millilitres left in the pump's bottle (≥ 0; needs flow_ml_per_s): each dose takes its volume, never below 0; at 0 the " +
        'decision answers empty. POST /actuators/{id}/refill records a refill. Null: not tracked.',
    ),
  ),
  stock_low_ml: nullable(NonNegative('At or under this stock_ml a stock_low alert (warning) is raised. Null: no warning.')),
};

/** "HH:MM", 00:00 to 23:59. */
export const ClockTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'A local time, HH:MM (00:00 to 23:59).' });
const MAX_SECONDS = 31_536_000;

/**
 * When a timed output is on (its times in the service's time zone, TZ). One object with every
 * field optional (the request validation keeps only the fields a schema names, so a union would
 * strip the fields of its later branches); which kind it is, and that it is whole, is checked
 * beside it (aims/settings.ts): `on` needs `hours`, `every` needs `for`.
 */
export const Schedule = Type.Object(
  {
    on: Type.Optional(ClockTime),
    hours: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 24, description: 'Hours on from `on` each day (24: always).' })),
    from_recipe: Type.Optional(Type.Literal(true, { description: "On with the light of the recipe the actuator's prototype follows." })),
    every: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_SECONDS,
        description: 'Seconds from the start of one irrigation cycle to the next.',
      }),
    ),
    for: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_SECONDS, description: 'Seconds on at the start of each cycle.' })),
    between: Type.Optional(
      Type.Tuple([ClockTime, ClockTime], { description: 'Cycles only from the first time to the second (may cross midnight).' }),
    ),
  },
  {
    title: 'Schedule',
    description:
      'One of: a daily window {"on": "HH:MM", "hours"}; the recipe light {"from_recipe": true}; cycles {"every", "for", "between"?}.',
  },
);
export type Schedule = Static<typeof Schedule>;

export const DOSE_MODES = ['fixed', 'proportional'] as const;

/** Dosing that aims (set point, sizing, sequence, schedule), optional on create and patch. */
const aimFields = {
  setpoint: nullable(
    Type.Number({
      description: 'The value the actuator aims for: it doses while the reading is past setpoint ± band. Null: condition_value decides.',
    }),
  ),
  band: Type.Number({ minimum: 0, description: 'Half-width of the dead band around the set point (≥ 0). Default 0.' }),
  dose_mode: StringEnum(DOSE_MODES, 'fixed (default): activation_duration every time; proportional: sized to the gap.'),
  dose_fraction: Type.Number({
    exclusiveMinimum: 0,
    maximum: 1,
    description: 'A proportional dose closes at most this fraction of the gap to the set point, in (0, 1]. Default 0.8.',
  }),
  min_duration: Type.Number({
    minimum: 0,
    maximum: MAX_SECONDS,
    description: 'Seconds: the dose while no gain is known (and the smallest a clamp gives). Default 1.',
  }),
  max_duration: nullable(
    Type.Number({ minimum: 0, maximum: MAX_SECONDS, description: 'Seconds: the largest proportional dose. Null: activation_duration.' }),
  ),
  initial_gain: nullable(
    Type.Number({
      exclusiveMinimum: 0,
      description: 'Reading change per second of run to size doses with until 3 answered doses give a learned gain. Null: none.',
    }),
  ),
  dose_order: nullable(
    Type.Integer({
      minimum: 0,
      maximum: MAX_ID,
      description: "Place in the prototype's dosing sequence (lower first: parts A, B, then pH). Null: not sequenced.",
    }),
  ),
  schedule: nullable(Schedule),
};

/** The dosing safety settings (docs/api.md §14), optional on create and patch. */
const safetyFields = {
  max_doses_per_hour: nullable(
    Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'At most this many doses in any rolling 60 minutes. Null: no limit.' }),
  ),
  max_seconds_per_day: nullable(
    Seconds('The run time of the doses in any rolling 24 h, this one included, stays at or under it. Null: no limit.'),
  ),
  min_response: nullable(
    Type.Number({ minimum: 0 }),
    'How far the reading must move in the corrective direction (strictly more) for a dose to count as answered. ' +
      "Default null: automatic, judged on the probe's filtered readings against the noise measured on its own recent readings.",
  ),
  response_delay: nullable(Seconds('Seconds after a dose before its effect is judged (mixing time). Null: activation_period.')),
  lockout_after: nullable(
    Type.Integer({
      minimum: 1,
      maximum: MAX_LOCKOUT_COUNT,
      description: `This many unanswered doses in a row lock the actuator out (1 to ${MAX_LOCKOUT_COUNT}). Default 20; null turns it off.`,
    }),
  ),
  lockout_reversed_after: nullable(
    Type.Integer({
      minimum: 1,
      maximum: 1000,
      description:
        'This many doses in a row after which the reading moved the wrong way lock the actuator out. Default 3; null turns it off.',
    }),
  ),
  usual_days: Type.Integer({
    minimum: 3,
    maximum: 365,
    description: 'Days of its own doses over which the usual dosing is learned (the median of the days that had doses). Default 7.',
  }),
  usual_window: Type.Number({
    minimum: 60,
    maximum: 86400,
    description: 'Seconds over which the amount dosed is compared with the usual amount. Default 21600 (6 h).',
  }),
  unusual_factor: nullable(
    Type.Number({
      exclusiveMinimum: 1,
      maximum: 1000,
      description:
        'More than this times the usual amount in the last usual_window holds the actuator (reason unusual) until unlocked. Default 2; null turns it off.',
    }),
  ),
  controller_timeout: nullable(Seconds('Seconds without a state read or run report before the controller counts as offline. Null: off.')),
  interlocks: Type.Array(InterlockInput, {
    maxItems: MAX_INTERLOCKS,
    description: `Up to ${MAX_INTERLOCKS} sensors whose readings block the pump; a patch that names interlocks replaces them all.`,
  }),
  ...volumeFields,
  ...aimFields,
};

export const ActuatorBase = Type.Object(
  { ...actuatorFields, ...Type.Partial(Type.Object(safetyFields)).properties },
  { title: 'ActuatorBase' },
);
export type ActuatorBase = Static<typeof ActuatorBase>;

export const Lockout = Type.Object(
  { since: DateTimeOutput('When the actuator was locked out.'), reason: Type.String() },
  { title: 'Lockout' },
);

export const Actuator = Type.Object(
  {
    ...withoutMaxima(actuatorFields),
    ...withoutMaxima(safetyFields),
    actuator_id: Id(),
    enabled: Type.Boolean(),
    actuator_name: Type.Union([Type.String(), Type.Null()]),
    controller: StringEnum(CONTROLLERS),
    last_activated: DateTimeOutput('When the pump last ran (initially the creation time).'),
    interlocks: Type.Array(Interlock),
    lockout: nullable(Lockout, 'Read-only: set while the actuator is locked out (POST /actuators/{id}/unlock clears it).'),
    learned_gain: nullable(
      Type.Number(),
      "Read-only: the reading's change per second of run, the median of the newest answered doses (null: fewer than 3 yet).",
    ),
    last_polled: nullable(
      DateTimeOutput(),
      'Read-only: when a controller last read the state or reported a run (to within 10 s; null: never).',
    ),
  },
  { title: 'Actuator' },
);
export type Actuator = Static<typeof Actuator>;

const { actuator_name: _name, enabled: _enabled, controller: _controller, ...required } = actuatorFields;
/** A patch leaves the stock alone (POST /actuators/{id}/refill sets it): stock_ml is an unknown field there, ignored. */
const { stock_ml: _stock, ...patchableSafetyFields } = safetyFields;
export const ActuatorPatch = Type.Object(
  {
    actuator_id: Id(),
    ...Type.Partial(Type.Object({ ...required, ...patchableSafetyFields })).properties,
    actuator_name: actuatorFields.actuator_name,
    enabled: Type.Optional(Type.Boolean()),
    controller: actuatorFields.controller,
  },
  {
    title: 'ActuatorPatch',
    description:
      'An actuator_id and any subset of the fields; the others keep their value. last_activated and stock_ml are accepted and ' +
      'ignored: only POST /actuators/{id}/refill sets the stock.',
  },
);
export type ActuatorPatch = Static<typeof ActuatorPatch>;

export const ActuatorActivation = Type.Object(
  {
    activate: Type.Boolean(),
    status: Type.String({ description: 'Which rule decided, for a person: "OK" when the condition was evaluated.' }),
    reason: Type.String({
      description:
        'Which rule decided, as a stable code (docs/api.md §14), first match wins: disabled, paused, locked_out, no_measurement, ' +
        'restarted, stale, invalid, stuck, interlock, empty, waiting, zero_duration, limit, sequenced, ok (then `activate` is the condition). ' +
        'Besides: claimed — another read was told to run and the run with its grace is not over (activate false); ' +
        'store_unavailable — the dose could not be committed (the store refused or did not answer, or this instance lost ' +
        'the link to the others), so the pump waits.',
      examples: ['ok', 'limit'],
    }),
    duration: Type.Number({
      description:
        'Seconds to run: activation_duration, or the sized dose of a proportional actuator, or the rest of the on-window of a schedule.',
    }),
    period: Type.Number({ description: 'activation_period, seconds.' }),
    setpoint: Type.Optional(nullable(Type.Number(), 'The set point aimed for (null: none).')),
    error: Type.Optional(nullable(Type.Number(), 'The newest reading minus the set point (null: no set point or no reading).')),
    gain: Type.Optional(
      nullable(Type.Number(), 'Reading change per second of run the dose is sized with, learned or initial_gain (null: none yet).'),
    ),
  },
  { title: 'ActuatorActivation' },
);

export const ActuatorIdParams = Type.Object({ actuator_id: Id() });

/** A recorded dose (docs/api.md §14). */
export const ActivationRecord = Type.Object(
  {
    activation_id: Id(),
    actuator_id: Id(),
    activated_at: DateTimeOutput('When the run was reported.'),
    duration: Type.Number({ description: "Seconds: the actuator's activation_duration then." }),
    value_before: nullable(Type.Number(), 'The newest reading of its sensor then; null when it had none.'),
    answered: nullable(Type.Boolean(), 'Whether the reading moved as the dose should move it; null: not judged (yet).'),
    response: nullable(
      Type.Number(),
      'How far the filtered reading moved in the corrective direction (negative: the wrong way); null until judged, or when judged against an explicit min_response.',
    ),
    reversed: nullable(Type.Boolean(), 'Whether the reading moved the wrong way beyond the noise; null until judged.'),
    volume_ml: nullable(
      Type.Number(),
      "Millilitres: duration × the actuator's flow_ml_per_s at the time of the dose (a later flow change leaves it as it was); " +
        'null when the actuator had no flow then.',
    ),
    reported: Type.Boolean({
      description:
        'Whether the controller reported the run. A dose is recorded when a controller is told to run (a claim); ' +
        'false when its report has not come (after the grace it stays false: the pump may have run, so it counts).',
    }),
    manual: Type.Boolean({ description: 'A run a person asked for (POST /actuators/{id}/run), not one the decision made.' }),
  },
  { title: 'Activation' },
);
export type ActivationRecord = Static<typeof ActivationRecord>;

export const ActivationListQuery = Type.Object({
  start_time: Type.Optional(DateTimeInput('Only doses at or after this instant.')),
  end_time: Type.Optional(DateTimeInput('Only doses before this instant.')),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'At most this many, newest first (1 to 1000, default 100).' }),
  ),
  before: Type.Optional(Id('Only doses with a smaller activation_id: the last one of the previous page, for paging.')),
});
export type ActivationListQuery = Static<typeof ActivationListQuery>;
