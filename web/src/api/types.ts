/**
 * The shapes the dashboard exchanges with the service, taken from the service's own TypeBox
 * schemas: a change there is a type error here, never a silent mismatch.
 */
import type { Static } from '@sinclair/typebox';
import type {
  ActivationListQuery,
  ActivationRecord,
  Actuator,
  ActuatorActivation,
  ActuatorBase,
  ActuatorPatch,
  InterlockInput,
} from '../../../src/domain/actuator.js';
import type { Alert, AlertEvent, AlertListQuery, AlertState, Level, PrototypeStatus } from '../../../src/domain/alert.js';
import type { AggregateBucket, AggregateQuery } from '../../../src/history/schemas.js';
import type { RemovalRefusedBody, ValidationErrorBody } from '../../../src/domain/schema-common.js';
import type { ExportQuery, Measurement, RandomMeasurements, RandomResult, WindowQuery } from '../../../src/domain/measurement.js';
import type { Pause, Prototype, PrototypeBase, PrototypeRename } from '../../../src/domain/prototype.js';
import type { Sensor, SensorBase, SensorPatch } from '../../../src/domain/sensor.js';
import type { TimelapseConfig, TimelapseMetadata, TimelapseStatus } from '../../../src/timelapse/schemas.js';
import type {
  DeviceTokenView,
  IssuedDeviceToken,
  NewDeviceToken,
  NewUser as NewUserBody,
  Token,
  UserChange,
  UserView,
} from '../../../src/users/schemas.js';

export type {
  ActivationListQuery,
  ActivationRecord,
  Actuator,
  ActuatorBase,
  ActuatorPatch,
  AggregateBucket,
  AggregateQuery,
  Alert,
  AlertEvent,
  AlertState,
  ExportQuery,
  InterlockInput,
  Level,
  Measurement,
  Pause,
  Prototype,
  PrototypeBase,
  PrototypeStatus,
  RandomMeasurements,
  Sensor,
  SensorBase,
  SensorPatch,
  TimelapseConfig,
  WindowQuery,
};
export type Timelapse = Static<typeof TimelapseMetadata>;
/** `GET /alerts` filters (docs/api.md §11). */
export type AlertQuery = AlertListQuery;
export type TimelapseState = Static<typeof TimelapseStatus>;
/**
 * The decision (`GET /actuators/{id}/state`). `reason`, the stable code of docs/api.md §14, is
 * optional: a service that does not send it yet is read by its `status`.
 */
export type ActuatorState = Static<typeof ActuatorActivation> & { reason?: string };
export type RandomOutcome = Static<typeof RandomResult>;
export type TokenReply = Static<typeof Token>;
export type PrototypeRenameBody = Static<typeof PrototypeRename>;
/** `GET /users` entry (docs/api.md §6.1). */
export type UserSummary = Static<typeof UserView>;
/** `POST /users` body: permissions as bits or names. */
export type NewUser = Static<typeof NewUserBody>;
/** `PATCH /users/{username}` body: either or both. */
export type UserPatch = Static<typeof UserChange>;
/** `POST /users/{username}/tokens` body. */
export type DeviceTokenRequest = Static<typeof NewDeviceToken>;
/** `GET /users/{username}/tokens` entry: never the secret. */
export type DeviceToken = Static<typeof DeviceTokenView>;
/** `POST /users/{username}/tokens` answer: the only time the secret is shown. */
export type CreatedDeviceToken = Static<typeof IssuedDeviceToken>;
export type ValidationIssue = Static<typeof ValidationErrorBody>['detail'][number];
/** The 409 of a delete refused while something is below it. */
export type RemovalRefused = Static<typeof RemovalRefusedBody>;

export type ActuatorType = Actuator['actuator_type'];
export type ActivationCondition = Actuator['activation_condition'];
export type SensorType = Sensor['sensor_type'];

/** Served by the dashboard plugin (src/dashboard/public-settings.ts): what the page needs to know about the service's settings. */
export interface DashboardSettings {
  auth_mode: 'open' | 'enforced';
  /** Enforced mode and no user yet: the login page offers to create the first administrator. */
  needs_first_admin?: boolean;
  stale_after_seconds: number;
  /** The optional parts the service has: the page leaves out what is missing, and computes levels itself without the status. */
  features?: { alerts: boolean; prototype_status: boolean };
  /** Devices publish under this MQTT prefix; null when the service joins no broker. */
  mqtt_prefix?: string | null;
  /** Where alert events are POSTed, masked (scheme and host only). */
  alert_webhooks?: string[];
  /** PICTURE_SOURCE is set: without it the camera shows only uploaded pictures. */
  picture_source_set?: boolean;
}
