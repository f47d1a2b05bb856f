import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { DateTimeInput, DateTimeOutput, Id, MAX_ID, StringEnum } from './schema-common.js';

export const ACTUATOR_TYPES = ['acid_pump', 'base_pump', 'nutrients_A_pump', 'nutrients_B_pump'] as const;
export const ACTIVATION_CONDITIONS = ['high', 'low', 'low_or_high', 'always'] as const;
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
    'high: v > condition_value; low: v < condition_value; low_or_high: v ≠ condition_value; always.',
  ),
  activation_period: Type.Number({ minimum: 0, description: 'Seconds to wait after an activation before the next.' }),
  activation_duration: Type.Number({ minimum: 0, description: 'Seconds the pump runs when activated.' }),
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
const Seconds = (description: string) => Type.Number({ minimum: 0, description });

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

const Positive = (description: string) => Type.Number({ exclusiveMinimum: 0, description });
const NonNegative = (description: string) => Type.Number({ minimum: 0, description });

/** A grower's volumes and bottle (docs/api.md §15), optional on create and patch. */
const volumeFields = {
  flow_ml_per_s: nullable(
    Positive("Millilitres the pump moves per second of run (> 0): a dose's volume is its duration × this. Null: unknown."),
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

/** The dosing safety settings (docs/api.md §14), optional on create and patch. */
const safetyFields = {
  max_doses_per_hour: nullable(
    Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'At most this many doses in any rolling 60 minutes. Null: no limit.' }),
  ),
  max_seconds_per_day: nullable(
    Seconds('The run time of the doses in any rolling 24 h, this one included, stays at or under it. Null: no limit.'),
  ),
  min_response: Type.Number({
    minimum: 0,
    description: 'How far the reading must move in the corrective direction (strictly more) for a dose to count as answered. Default 0.',
  }),
  response_delay: nullable(Seconds('Seconds after a dose before its effect is judged (mixing time). Null: activation_period.')),
  lockout_after: nullable(
    Type.Integer({
      minimum: 1,
      maximum: MAX_ID,
      description: 'This many unanswered doses in a row lock the actuator out. Default 20; null turns it off.',
    }),
  ),
  controller_timeout: nullable(Seconds('Seconds without a state read or run report before the controller counts as offline. Null: off.')),
  interlocks: Type.Array(InterlockInput, {
    maxItems: MAX_INTERLOCKS,
    description: `Up to ${MAX_INTERLOCKS} sensors whose readings block the pump; a patch that names interlocks replaces them all.`,
  }),
  ...volumeFields,
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
    ...actuatorFields,
    ...safetyFields,
    actuator_id: Id(),
    enabled: Type.Boolean(),
    actuator_name: Type.Union([Type.String(), Type.Null()]),
    controller: StringEnum(CONTROLLERS),
    last_activated: DateTimeOutput('When the pump last ran (initially the creation time).'),
    interlocks: Type.Array(Interlock),
    lockout: nullable(Lockout, 'Read-only: set while the actuator is locked out (POST /actuators/{id}/unlock clears it).'),
    last_polled: nullable(
      DateTimeOutput(),
      'Read-only: when a controller last read the state or reported a run (to within 10 s; null: never).',
    ),
  },
  { title: 'Actuator' },
);
export type Actuator = Static<typeof Actuator>;

const { actuator_name: _name, enabled: _enabled, controller: _controller, ...required } = actuatorFields;
export const ActuatorPatch = Type.Object(
  {
    actuator_id: Id(),
    ...Type.Partial(Type.Object({ ...required, ...safetyFields })).properties,
    actuator_name: actuatorFields.actuator_name,
    enabled: Type.Optional(Type.Boolean()),
    controller: actuatorFields.controller,
  },
  {
    title: 'ActuatorPatch',
    description: 'An actuator_id and any subset of the fields; the others keep their value. last_activated is accepted and ignored.',
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
        'restarted, stale, invalid, stuck, interlock, empty, waiting, zero_duration, limit, ok (then `activate` is the condition). ' +
        'Besides: claimed — another read was told to run and the run with its grace is not over (activate false); ' +
        'store_unavailable — the dose could not be committed (the store refused or did not answer, or this instance lost ' +
        'the link to the others), so the pump waits.',
      examples: ['ok', 'limit'],
    }),
    duration: Type.Number({ description: 'activation_duration, seconds.' }),
    period: Type.Number({ description: 'activation_period, seconds.' }),
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
