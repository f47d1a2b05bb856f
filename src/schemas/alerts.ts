import { type Static, Type } from '@sinclair/typebox';
import { DateTimeOutput, Id, StringEnum } from './common.js';

/** A sensor's level from its newest measurement and thresholds (§11); a value equal to a threshold is not beyond it. */
export const LEVELS = ['critically_low', 'low', 'ok', 'high', 'critically_high', 'stale'] as const;
export const Level = StringEnum(LEVELS);
export type Level = Static<typeof Level>;

export const ALERT_KINDS = ['low', 'high', 'stale'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_SEVERITIES = ['warning', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
export const ALERT_STATES = ['active', 'cleared'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export const Alert = Type.Object(
  {
    alert_id: Id(),
    sensor_id: Id(),
    prototype_id: Id(),
    kind: StringEnum(ALERT_KINDS),
    severity: StringEnum(ALERT_SEVERITIES, 'critical for the critical levels; stale alerts are warnings.'),
    state: StringEnum(ALERT_STATES),
    raised_at: DateTimeOutput(),
    cleared_at: Type.Union([DateTimeOutput(), Type.Null()]),
    acknowledged_at: Type.Union([DateTimeOutput(), Type.Null()]),
    acknowledged_by: Type.Union([Type.String(), Type.Null()], { description: 'The username; null in open mode.' }),
    value: Type.Union([Type.Number(), Type.Null()], { description: 'The measurement that raised it (null for a stale alert).' }),
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
