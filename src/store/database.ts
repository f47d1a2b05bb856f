import type { ColumnType, Generated, Selectable } from 'kysely';
import type { ActuatorBase, ControllerKind, Schedule } from '../domain/actuator.js';
import type { AlertKind, AlertSeverity, AlertState, Level } from '../domain/alert.js';
import type { StoredPrototype } from '../domain/prototype.js';
import type { SensorBase } from '../domain/sensor.js';

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
/** A non-null column the store fills with its default when an insert leaves it out (nullable ones may be left out anyway). */
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** A boolean column with a default (an insert may leave it out). */
export type DefaultedBool = Defaulted<boolean | number>;

/** The pause (migration 030) is null until a pause is set; an ended pause stays until the next one. */
export type PrototypeTable = Omit<StoredPrototype, 'paused_until'> & { paused_until: DbTime | null };

/**
 * Every field stored; the trust settings (migration 030) and the calibration interval (036) are
 * null when not set. `calibrated_at` and `calibration_due` are the service's own (036): the newest
 * accepted calibration and when the next one falls due.
 */
export type SensorTable = { [K in keyof SensorBase]-?: Exclude<SensorBase[K], undefined> } & {
  sensor_id: Generated<number>;
  calibrated_at: DbTime | null;
  calibration_due: DbTime | null;
};

export interface MeasurementTable {
  measurement_id: Generated<number>;
  sensor_id: number;
  value: number;
  timestamp: DbTime;
}

/** The dosing safety settings (migration 030): an insert that leaves them out gets the defaults. */
type ActuatorSafetySetting =
  | 'max_doses_per_hour'
  | 'max_seconds_per_day'
  | 'min_response'
  | 'response_delay'
  | 'lockout_after'
  | 'controller_timeout'
  // How doses are judged (migration 085).
  | 'lockout_reversed_after'
  | 'usual_days'
  | 'usual_window'
  | 'unusual_factor'
  // The volumes and bottle (migration 035).
  | 'flow_ml_per_s'
  | 'max_ml_per_day'
  | 'stock_ml'
  | 'stock_low_ml';

/** Dosing that aims (migration 105): an insert that leaves out the defaulted ones gets the defaults. */
type ActuatorAimSetting =
  'setpoint' | 'band' | 'dose_mode' | 'dose_fraction' | 'min_duration' | 'max_duration' | 'initial_gain' | 'dose_order' | 'schedule';

/**
 * Every setting is stored (a name left out is null); last_activated is the controller's report.
 * The interlocks have a table of their own. The lockout and the count of unanswered doses in a
 * row are the service's own state, never written by a settings update.
 */
export type ActuatorTable = Omit<
  Required<ActuatorBase>,
  'enabled' | 'interlocks' | 'controller' | ActuatorSafetySetting | ActuatorAimSetting
> & {
  [K in Exclude<ActuatorSafetySetting, 'usual_days' | 'usual_window'>]: Exclude<ActuatorBase[K], undefined>;
} & {
  usual_days: Defaulted<number>;
  usual_window: Defaulted<number>;
  /** Where the controller is told to act (migration 080); 'http' unless set. */
  controller: Defaulted<ControllerKind>;
  actuator_id: Generated<number>;
  enabled: DbBool;
  last_activated: DbTime;
  lockout_since: DbTime | null;
  lockout_reason: string | null;
  /** null for a lockout; `unusual` for a hold on unusual consumption (migration 085). */
  lockout_kind: string | null;
  /** Doses before this are not learned as usual (set by an unlock); null: all are. */
  usual_since: DbTime | null;
  unanswered_streak: Defaulted<number>;
  /** Written in batches from what was noted in memory (migration 032); null until first polled. */
  last_polled: DbTime | null;
  setpoint: number | null;
  band: Defaulted<number>;
  dose_mode: Defaulted<Exclude<ActuatorBase['dose_mode'], undefined>>;
  dose_fraction: Defaulted<number>;
  min_duration: Defaulted<number>;
  max_duration: number | null;
  initial_gain: number | null;
  dose_order: number | null;
  /** The schedule as JSON text; null: none. */
  schedule: string | null;
  /** The service's own: the gain learned from the answered doses (aims/gain.ts); null until 3. */
  learned_gain: number | null;
  /** The open claim (migration 080): until when no other reader is told to run, and the dose it made. */
  claim_until: DbTime | null;
  claim_activation_id: number | null;
  /** A run a person asked for, in seconds, until its controller's next read claims it (migration 080). */
  manual_run_seconds: number | null;
};

/** One interlock of one actuator, in the actuator's order (`position` from 0). */
export interface ActuatorInterlockTable {
  actuator_id: number;
  position: number;
  sensor_id: number;
  block_below: number | null;
  block_above: number | null;
}

/** One dose: a run the controller reported (docs/api.md §14). */
export interface ActivationTable {
  activation_id: Generated<number>;
  actuator_id: number;
  activated_at: DbTime;
  /** Seconds: the actuator's activation_duration when the run was reported. */
  duration: number;
  /** The newest reading of its sensor then; null when it had none. */
  value_before: number | null;
  /** null until judged (and for doses never judged). */
  answered: DbBool | null;
  /** Millilitres: duration × the actuator's flow when the run was reported (migration 035); null without a flow then. */
  volume_ml: ColumnType<number | null, number | null | undefined, number | null>;
  /** How far the filtered reading moved in the corrective direction (migration 085); null when not measured. */
  response: ColumnType<number | null, number | null | undefined, number | null>;
  /** Whether the reading moved the wrong way beyond the noise; null until judged. */
  reversed: DbBool | null;
  /** How far the reading moved in the corrective direction, as the judging saw it (migration 105); null until judged. */
  moved: ColumnType<number | null, number | null | undefined, number | null>;
  /** Whether the controller reported the run (migration 080): false for a claim whose report never came (yet). */
  reported: DefaultedBool;
  /** A run a person asked for (POST /actuators/{id}/run), not one the decision made. */
  manual: DefaultedBool;
}

/** A refill of an actuator's bottle (docs/api.md §15): the stock it was set to, when and by whom. */
export interface RefillTable {
  refill_id: Generated<number>;
  actuator_id: number;
  refilled_at: DbTime;
  /** The bottle's content after the refill, millilitres. */
  stock_ml: number;
  /** The user who recorded it (enforced mode); null in open mode. */
  author: string | null;
}

/** One calibration of a sensor's probe (docs/api.md §15); its points as JSON text. */
export interface CalibrationTable {
  calibration_id: Generated<number>;
  sensor_id: number;
  calibrated_at: DbTime;
  points: string;
  slope: number;
  offset: number;
  accepted: DbBool;
  note: string | null;
  author: string | null;
}

/** One note of a prototype's journal (docs/api.md §15); its tags have a table of their own. */
export interface NoteTable {
  note_id: Generated<number>;
  prototype_id: number;
  at: DbTime;
  text: string;
  author: string | null;
}

/** One tag of one note, in the note's order (`position` from 0). */
export interface NoteTagTable {
  note_id: number;
  position: number;
  tag: string;
}

export const SAFETY_EVENT_KINDS = ['lockout', 'unlock', 'pause', 'resume'] as const;
export type SafetyEventKind = (typeof SAFETY_EVENT_KINDS)[number];

/**
 * What the dosing safety did, for the journal (migration 036): an actuator locked out or unlocked
 * (`actuator_id`), a prototype paused or resumed (`prototype_id`); written in the same
 * transaction as the change itself.
 */
export interface SafetyEventTable {
  event_id: Generated<number>;
  kind: SafetyEventKind;
  at: DbTime;
  actuator_id: number | null;
  prototype_id: number | null;
  /** A pause's end. */
  until: DbTime | null;
  /** A lockout's reason. */
  reason: string | null;
  /** Who unlocked, paused or resumed; null for the service's own and in open mode. */
  author: string | null;
}

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
  /** Tokens obtained with a password carry it too; logout moves it on, leaving device tokens valid (migration 033). */
  session_generation: Generated<number>;
}

/** A device token (migration 033): its secret is never stored, only what lists and revokes it. */
export interface DeviceTokenTable {
  token_id: Generated<number>;
  user_id: number;
  name: string;
  created_at: DbTime;
  expires_at: DbTime;
  /** To within a minute (noted in memory, written in batches); null: never used. */
  last_used_at: DbTime | null;
  /** The prototypes the token is limited to, a JSON array of ids (migration 110); null: every prototype. */
  prototype_ids: string | null;
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
 * One history bucket of one sensor (see src/domain/bucket-summary.ts for what each field means).
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

/** One alert (docs/api.md §11); its prototype is its sensor's, read through the sensor. */
export interface AlertTable {
  alert_id: Generated<number>;
  /** Null for an alert about an actuator or about the service itself (a failed backup). */
  sensor_id: number | null;
  actuator_id: ColumnType<number | null, number | null | undefined, number | null>;
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
  /** Since when the level has stayed short of critical with a critical low/high alert still active (null: no de-escalation pending). */
  calm_since: DbTime | null;
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

/** A notification channel (migration 100): its type's plain settings as JSON text, its secrets sealed. */
export interface NotificationChannelTable {
  channel_id: Generated<number>;
  type: string;
  name: string;
  min_severity: string;
  /** JSON array of prototype ids; null: every prototype. */
  prototype_ids: string | null;
  quiet_from: string | null;
  quiet_to: string | null;
  escalation: DbBool;
  settings: string;
  sealed: string | null;
  created_at: DbTime;
  failing_since: DbTime | null;
  failure_told: DbBool;
}

/** How far one alert's messages have gone (migration 100). */
export interface NotificationProgressTable {
  alert_id: number;
  severity: string;
  critical_since: DbTime | null;
  sends: number;
  next_repeat_at: DbTime | null;
  escalated: DbBool;
  finished: DbBool;
}

export interface NotificationLinkUsedTable {
  nonce: string;
  used_at: DbTime;
}

/**
 * One change of an actuator's decision (migration 095): the new `reason` and `status`, whether it
 * would run, when, and who caused it where a person did (null otherwise and in open mode).
 */
export interface ActuatorDecisionTable {
  decision_id: Generated<number>;
  actuator_id: number;
  at: DbTime;
  reason: string;
  status: string;
  activate: DbBool;
  by: string | null;
}

/**
 * One change of an actuator's or a sensor's settings (migration 096): who made it, and per field
 * changed its value before and after, as JSON `[{"field", "from", "to"}]`.
 */
export interface SettingsChangeTable {
  change_id: Generated<number>;
  at: DbTime;
  prototype_id: number;
  actuator_id: number | null;
  sensor_id: number | null;
  author: string | null;
  changes: string;
}

export interface Database {
  notification_channels: NotificationChannelTable;
  notification_progress: NotificationProgressTable;
  notification_links_used: NotificationLinkUsedTable;
  alerts: AlertTable;
  alert_levels: AlertLevelTable;
  alert_notifications: AlertNotificationTable;
  history_buckets: HistoryBucketTable;
  prototypes: PrototypeTable;
  sensors: SensorTable;
  measurements: MeasurementTable;
  actuators: ActuatorTable;
  actuator_interlocks: ActuatorInterlockTable;
  activations: ActivationTable;
  refills: RefillTable;
  calibrations: CalibrationTable;
  notes: NoteTable;
  note_tags: NoteTagTable;
  safety_events: SafetyEventTable;
  actuator_decisions: ActuatorDecisionTable;
  settings_changes: SettingsChangeTable;
  users: UserTable;
  device_tokens: DeviceTokenTable;
  settings: SettingTable;
  pictures: PictureTable;
}

/** A measurement as the service handles it: the timestamp in epoch milliseconds. */
export type StoredMeasurement = Selectable<MeasurementTable>;
export type NewMeasurement = Omit<StoredMeasurement, 'measurement_id'>;

/** An actuator as the service handles it: last_activated in epoch ms, enabled a boolean on both stores. */
export type StoredActuator = Omit<Selectable<ActuatorTable>, 'enabled' | 'schedule'> & { enabled: boolean; schedule: Schedule | null };
/** What an actuator's create and settings update write: no id, none of the service's own state. */
export type ActuatorFields = Omit<
  StoredActuator,
  | 'actuator_id'
  | 'lockout_since'
  | 'lockout_reason'
  | 'lockout_kind'
  | 'usual_since'
  | 'unanswered_streak'
  | 'last_polled'
  | 'learned_gain'
  | 'claim_until'
  | 'claim_activation_id'
  | 'manual_run_seconds'
>;
export type StoredInterlock = Omit<Selectable<ActuatorInterlockTable>, 'actuator_id' | 'position'>;
/** A dose as the service handles it: activated_at in epoch ms, answered a boolean or null on both stores. */
export type StoredActivation = Omit<Selectable<ActivationTable>, 'answered' | 'reversed' | 'reported' | 'manual'> & {
  answered: boolean | null;
  reversed: boolean | null;
  reported: boolean;
  manual: boolean;
};
/** A refill as the service handles it: refilled_at in epoch ms. */
export type StoredRefill = Selectable<RefillTable>;

export type StoredSafetyEvent = Selectable<SafetyEventTable>;
export type NewSafetyEvent = Omit<StoredSafetyEvent, 'event_id' | 'until' | 'reason' | 'author'> &
  Partial<Pick<StoredSafetyEvent, 'until' | 'reason' | 'author'>>;

/** A decision change as the service handles it: `at` in epoch ms, `activate` a boolean on both stores. */
export type StoredDecision = Omit<Selectable<ActuatorDecisionTable>, 'activate'> & { activate: boolean };
/** A decision change to record, with the instant it took effect. */
export type NewDecision = Omit<StoredDecision, 'decision_id'>;

export type StoredSettingsChange = Selectable<SettingsChangeTable>;
export type NewSettingsChange = Omit<StoredSettingsChange, 'change_id'>;

export type StoredUser = Selectable<UserTable>;
/** A device token as the service handles it: `prototype_ids` as ids (null: every prototype). */
export type StoredDeviceToken = Omit<Selectable<DeviceTokenTable>, 'prototype_ids'> & { prototype_ids: number[] | null };

export type StoredAlert = Selectable<AlertTable>;
export type StoredNotification = Selectable<AlertNotificationTable>;
