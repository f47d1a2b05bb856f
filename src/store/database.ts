import type { ColumnType, Generated, Selectable } from 'kysely';
import type { ActuatorBase } from '../schemas/actuators.js';
import type { AlertKind, AlertSeverity, AlertState, Level } from '../schemas/alerts.js';
import type { Prototype } from '../schemas/prototypes.js';
import type { SensorBase } from '../schemas/sensors.js';

/**
 * The tables. Where a table holds what a request schema describes, its columns are that schema's
 * fields (the schema is the one declaration), plus what the store adds; every row type the
 * service handles is derived from these below.
 *
 * Timestamps are read back as epoch milliseconds on both stores (SQLite keeps INTEGER ms,
 * PostgreSQL keeps timestamptz and the driver parses it to ms), and written through `Dialect.time`.
 */
export type DbTime = ColumnType<number, number | Date, number | Date>;
/** SQLite has no boolean: it stores 0/1. Read through `Boolean(...)`, write through `Dialect.bool`. */
export type DbBool = ColumnType<boolean | number, boolean | number, boolean | number>;

export type PrototypeTable = Prototype;

export type SensorTable = SensorBase & { sensor_id: Generated<number> };

export interface MeasurementTable {
  measurement_id: Generated<number>;
  sensor_id: number;
  value: number;
  timestamp: DbTime;
}

/** Every setting is stored (a name left out is null); last_activated is the controller's report. */
export type ActuatorTable = Omit<Required<ActuatorBase>, 'enabled'> & {
  actuator_id: Generated<number>;
  enabled: DbBool;
  last_activated: DbTime;
};

export interface UserTable {
  user_id: Generated<number>;
  username: string;
  password_hash: string;
  permissions: number;
  created_at: DbTime;
  /** When the user last logged out (revoking its tokens); null: never. */
  tokens_valid_after: DbTime | null;
  /** Tokens carry the generation they were issued in; logout moves it on, revoking them all. */
  token_generation: Generated<number>;
}

export interface SettingTable {
  key: string;
  value: string;
}

export interface PictureTable {
  picture_id: number;
  content_type: string;
  bytes: Uint8Array;
  updated_at: DbTime;
}

/**
 * One history bucket of one sensor (see src/history/summary.ts for what each field means).
 * Times are epoch milliseconds as plain integers on both stores: buckets are arithmetic on them.
 */
export interface HistoryBucketTable {
  sensor_id: number;
  size_ms: number;
  start_ms: number;
  row_count: number;
  value_sum: number;
  min_value: number;
  min_ts: number;
  min_id: number;
  max_value: number;
  max_ts: number;
  max_id: number;
  first_value: number;
  first_ts: number;
  first_id: number;
  last_value: number;
  last_ts: number;
  last_id: number;
  /** The last write's stamp (see migration 021); left out by writers older than it. */
  stamp: ColumnType<number, number | undefined, number>;
}

/** One alert (API.md §11); its prototype is its sensor's, read through the sensor. */
export interface AlertTable {
  alert_id: Generated<number>;
  sensor_id: number;
  kind: AlertKind;
  severity: AlertSeverity;
  state: AlertState;
  raised_at: DbTime;
  cleared_at: DbTime | null;
  acknowledged_at: DbTime | null;
  acknowledged_by: string | null;
  value: number | null;
  peak: number | null;
  last_value: number | null;
}

/** Each sensor's level as its alerts were last evaluated; no row reads as a sensor with no alert history. */
export interface AlertLevelTable {
  sensor_id: number;
  level: Level | null;
  /** Since when the level has been back at ok with a low/high alert still active (null: no clear pending). */
  ok_since: DbTime | null;
}

/** One alert event still to be delivered to one webhook URL (the outbox). */
export interface AlertNotificationTable {
  notification_id: Generated<number>;
  alert_id: number;
  url: string;
  idempotency_key: string;
  payload: string;
  created_at: DbTime;
  attempts: Generated<number>;
  next_attempt_at: DbTime;
  last_error: string | null;
}

export interface Database {
  alerts: AlertTable;
  alert_levels: AlertLevelTable;
  alert_notifications: AlertNotificationTable;
  history_buckets: HistoryBucketTable;
  prototypes: PrototypeTable;
  sensors: SensorTable;
  measurements: MeasurementTable;
  actuators: ActuatorTable;
  users: UserTable;
  settings: SettingTable;
  pictures: PictureTable;
}

/** A measurement as the service handles it: the timestamp in epoch milliseconds. */
export type StoredMeasurement = Selectable<MeasurementTable>;
export type NewMeasurement = Omit<StoredMeasurement, 'measurement_id'>;

/** An actuator as the service handles it: last_activated in epoch ms, enabled a boolean on both stores. */
export type StoredActuator = Omit<Selectable<ActuatorTable>, 'enabled'> & { enabled: boolean };
export type ActuatorFields = Omit<StoredActuator, 'actuator_id'>;

export type StoredUser = Selectable<UserTable>;

export type StoredAlert = Selectable<AlertTable>;
export type StoredNotification = Selectable<AlertNotificationTable>;
