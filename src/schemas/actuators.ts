import { type Static, Type } from '@sinclair/typebox';
import { DateTimeOutput, Id, StringEnum } from './common.js';

export const ACTUATOR_TYPES = ['acid_pump', 'base_pump', 'nutrients_A_pump', 'nutrients_B_pump'] as const;
export const ACTIVATION_CONDITIONS = ['high', 'low', 'low_or_high', 'always'] as const;
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
};

export const ActuatorBase = Type.Object(actuatorFields, { title: 'ActuatorBase' });
export type ActuatorBase = Static<typeof ActuatorBase>;

export const Actuator = Type.Object(
  {
    ...actuatorFields,
    actuator_id: Id(),
    enabled: Type.Boolean(),
    actuator_name: Type.Union([Type.String(), Type.Null()]),
    last_activated: DateTimeOutput('When the pump last ran (initially the creation time).'),
  },
  { title: 'Actuator' },
);
export type Actuator = Static<typeof Actuator>;

const { actuator_name: _name, enabled: _enabled, ...required } = actuatorFields;
export const ActuatorPatch = Type.Object(
  {
    actuator_id: Id(),
    ...Type.Partial(Type.Object(required)).properties,
    actuator_name: actuatorFields.actuator_name,
    enabled: Type.Optional(Type.Boolean()),
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
    status: Type.String({ description: 'Which rule decided: "OK" when the condition was evaluated.' }),
    duration: Type.Number({ description: 'activation_duration, seconds.' }),
    period: Type.Number({ description: 'activation_period, seconds.' }),
  },
  { title: 'ActuatorActivation' },
);

export const ActuatorIdParams = Type.Object({ actuator_id: Id() });
