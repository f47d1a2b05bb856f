import { type Static, Type } from '@sinclair/typebox';
import { Actuator, ActuatorActivation } from './actuator.js';
import { DateTimeOutput, Id, StringEnum } from './schema-common.js';
import { Measurement } from './measurement.js';
import { Prototype } from './prototype.js';
import { Sensor } from './sensor.js';

/**
 * A sensor's level from its newest measurement and thresholds (§11); a value equal to a threshold
 * is not beyond it. Before the thresholds (§14): `stale`, then `invalid` (outside the valid range),
 * then `stuck` (the same value repeated for `stuck_after`).
 */
export const LEVELS = ['critically_low', 'low', 'ok', 'high', 'critically_high', 'stale', 'invalid', 'stuck'] as const;
export const Level = StringEnum(LEVELS);
export type Level = Static<typeof Level>;

/**
 * `low`/`high`/`stale` are a sensor's; `backup` is the service's own (no sensor, no actuator); the
 * others belong to actuators and a grower's records.
 */
export const ALERT_KINDS = [
  'low',
  'high',
  'stale',
  'invalid',
  'stuck',
  'lockout',
  'limit',
  'controller_offline',
  'backup',
  'stock_low',
  'calibration_due',
  'unusual',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
/**
 * The kinds a sensor's level raises and clears (§11, §14), all kept by the level evaluation; a
 * sensor's other alerts (`calibration_due`) follow rules of their own and are left to them.
 */
export const LEVEL_ALERT_KINDS = ['low', 'high', 'stale', 'invalid', 'stuck'] as const satisfies readonly AlertKind[];
export const isLevelAlertKind = (kind: AlertKind): boolean => (LEVEL_ALERT_KINDS as readonly AlertKind[]).includes(kind);
export const ALERT_SEVERITIES = ['warning', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
export const ALERT_STATES = ['active', 'cleared'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export const Alert = Type.Object(
  {
    alert_id: Id(),
    sensor_id: Type.Union([Id(), Type.Null()], {
      description: 'The sensor it is about; null for an actuator’s or the service’s own alert.',
    }),
    actuator_id: Type.Union([Id(), Type.Null()], { description: 'The actuator it is about, or null.' }),
    prototype_id: Type.Union([Id(), Type.Null()], {
      description: 'The prototype of its sensor (of its actuator’s sensor for an actuator’s alert); null for the service’s own.',
    }),
    kind: StringEnum(ALERT_KINDS),
    severity: StringEnum(
      ALERT_SEVERITIES,
      'critical for the critical levels, invalid, lockout and controller_offline; stale, stuck, limit, stock_low and calibration_due alerts are warnings.',
    ),
    state: StringEnum(ALERT_STATES),
    raised_at: DateTimeOutput(),
    cleared_at: Type.Union([DateTimeOutput(), Type.Null()]),
    acknowledged_at: Type.Union([DateTimeOutput(), Type.Null()]),
    acknowledged_by: Type.Union([Type.String(), Type.Null()], { description: 'The username; null in open mode.' }),
    value: Type.Union([Type.Number(), Type.Null()], {
      description: 'The measurement that raised it (null for a stale alert); for stock_low, the millilitres left when it was raised.',
    }),
    peak: Type.Union([Type.Number(), Type.Null()], { description: 'The furthest value while active.' }),
    last_value: Type.Union([Type.Number(), Type.Null()], { description: 'The newest value while active.' }),
  },
  { title: 'Alert' },
);
export type Alert = Static<typeof Alert>;

/**
 * What happened to an alert. The contract names four events; a change of severity in either
 * direction (warning ↔ critical) is `escalated`, its alert carrying the new severity.
 */
export const ALERT_EVENTS = ['raised', 'escalated', 'cleared', 'acknowledged'] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

export const AlertIdParams = Type.Object({ alert_id: Id() });

export const MAX_ALERTS_PAGE = 1000;

export const AlertListQuery = Type.Object({
  state: Type.Optional(StringEnum([...ALERT_STATES, 'all'] as const, 'Which alerts: active (default), cleared, or all.')),
  prototype_id: Type.Optional(Id('Only the alerts of this prototype’s sensors and actuators.')),
  sensor_id: Type.Optional(Id('Only this sensor’s alerts.')),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_ALERTS_PAGE,
      default: 100,
      description: `At most this many (1 to ${MAX_ALERTS_PAGE}, default 100).`,
    }),
  ),
  before: Type.Optional(Id('Paging: only alerts with a lower alert_id (pass the last alert_id of the previous page).')),
});
export type AlertListQuery = Static<typeof AlertListQuery>;

/** What `GET /prototypes/{prototype_id}/status` answers: an overview page in one request. */
export const PrototypeStatus = Type.Object(
  {
    prototype: Prototype,
    sensors: Type.Array(
      Type.Object({
        sensor: Sensor,
        level: Type.Union([Level, Type.Null()], {
          description: 'The level of the newest measurement at the time of the request; null while the sensor has none.',
        }),
        last_measurement: Type.Union([Measurement, Type.Null()]),
        alerts: Type.Array(Alert, { description: 'The active alerts, oldest first.' }),
      }),
      { description: 'By sensor_id.' },
    ),
    actuators: Type.Array(Type.Object({ actuator: Actuator, state: ActuatorActivation }), {
      description: 'By actuator_id, each with its decision (GET /actuators/{actuator_id}/state) at the time of the request.',
    }),
  },
  { title: 'PrototypeStatus' },
);
export type PrototypeStatus = Static<typeof PrototypeStatus>;
