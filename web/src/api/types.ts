/**
 * The shapes the dashboard exchanges with the service, taken from the service's own TypeBox
 * schemas: a change there is a type error here, never a silent mismatch.
 */
import type { Static } from '@sinclair/typebox';
import type { Actuator, ActuatorActivation, ActuatorBase, ActuatorPatch } from '../../../src/schemas/actuators.js';
import type { Alert, AlertEvent, AlertListQuery, AlertState, Level, PrototypeStatus } from '../../../src/schemas/alerts.js';
import type { AggregateBucket, AggregateQuery } from '../../../src/schemas/history.js';
import type { ValidationErrorBody } from '../../../src/schemas/common.js';
import type { ExportQuery, Measurement, RandomMeasurements, RandomResult, WindowQuery } from '../../../src/schemas/measurements.js';
import type { Prototype } from '../../../src/schemas/prototypes.js';
import type { Sensor, SensorBase, SensorPatch } from '../../../src/schemas/sensors.js';
import type { TimelapseConfig, TimelapseMetadata, TimelapseStatus } from '../../../src/schemas/timelapse.js';
import type { Token } from '../../../src/schemas/users.js';

export type {
  Actuator,
  ActuatorBase,
  ActuatorPatch,
  AggregateBucket,
  AggregateQuery,
  Alert,
  AlertEvent,
  AlertState,
  ExportQuery,
  Level,
  Measurement,
  Prototype,
  PrototypeStatus,
  RandomMeasurements,
  Sensor,
  SensorBase,
  SensorPatch,
  TimelapseConfig,
  WindowQuery,
};
export type Timelapse = Static<typeof TimelapseMetadata>;
/** `GET /alerts` filters (API.md §11). */
export type AlertQuery = AlertListQuery;
export type TimelapseState = Static<typeof TimelapseStatus>;
export type ActuatorState = Static<typeof ActuatorActivation>;
export type RandomOutcome = Static<typeof RandomResult>;
export type TokenReply = Static<typeof Token>;
export type ValidationIssue = Static<typeof ValidationErrorBody>['detail'][number];

export type ActuatorType = Actuator['actuator_type'];
export type ActivationCondition = Actuator['activation_condition'];
export type SensorType = Sensor['sensor_type'];

/** Served by the dashboard plugin: what the page needs to know about the service's settings. */
export interface DashboardSettings {
  auth_mode: 'open' | 'enforced';
  stale_after_seconds: number;
  /** The optional parts the service has: the page leaves out what is missing, and computes levels itself without the status. */
  features?: { alerts: boolean; prototype_status: boolean };
}


