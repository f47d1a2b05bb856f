import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../dialect.js';
import { coreMigration } from './001_core.js';
import { tokenGenerationMigration } from './002_token_generation.js';
import { finiteNumbersMigration } from './003_finite_numbers.js';
import { noNulMigration } from './004_no_nul.js';
import { historyBucketsMigration, type MigrationLog } from './010_history_buckets.js';
import { measurementsCheckMigration } from './011_measurements_check.js';
import { alertsMigration } from './020_alerts.js';
import { bucketStampsMigration } from './021_bucket_stamps.js';
import { alertCalmSinceMigration } from './022_alert_calm_since.js';
import { dosingSafetyMigration } from './030_dosing_safety.js';
import { alertSubjectsMigration } from './031_alert_subjects.js';
import { lastPolledMigration } from './032_last_polled.js';
import { deviceTokensMigration } from './033_device_tokens.js';
import { sensorNamesMigration } from './034_sensor_names.js';
import { volumesStockMigration } from './035_volumes_stock.js';
import { calibrationsJournalMigration } from './036_calibrations_journal.js';
import { partitionedMeasurementsMigration } from './070_partitioned_measurements.js';
import { historyPendingMigration } from './071_history_pending.js';
import { leasesMigration } from './072_leases.js';
import { claimsMigration } from './080_claims.js';
import { doseJudgingMigration } from './085_dose_judging.js';
import { unusualAlertsMigration } from './086_unusual_alerts.js';
import { decisionHistoryMigration } from './095_decision_history.js';
import { settingsChangesMigration } from './096_settings_changes.js';
import { notificationsMigration } from './100_notifications.js';
import { aimsMigration } from './105_aims.js';
import { deviceTokenTanksMigration } from './110_device_token_tanks.js';

/**
 * Migrations are code, not files found at run time, so the built service carries them. Names sort
 * in order. Each is the schema's history as it was written: the first takes its column types from
 * the dialect; later ones whose SQL has nothing in common between the stores name the store.
 */
export function migrationProvider(dialect: Dialect, log: MigrationLog = () => {}): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '001_core': coreMigration(dialect.schema),
    '002_token_generation': tokenGenerationMigration(),
    '003_finite_numbers': finiteNumbersMigration(dialect.kind),
    '004_no_nul': noNulMigration(dialect.kind),
    '010_history_buckets': historyBucketsMigration(dialect, log),
    '011_measurements_check': measurementsCheckMigration(dialect.kind, log),
    '020_alerts': alertsMigration(dialect.schema),
    '021_bucket_stamps': bucketStampsMigration(),
    '022_alert_calm_since': alertCalmSinceMigration(dialect.schema),
    '030_dosing_safety': dosingSafetyMigration(dialect.schema),
    '031_alert_subjects': alertSubjectsMigration(dialect.kind),
    '032_last_polled': lastPolledMigration(dialect.schema),
    '033_device_tokens': deviceTokensMigration(dialect.schema),
    '034_sensor_names': sensorNamesMigration(),
    '035_volumes_stock': volumesStockMigration(dialect.schema),
    '036_calibrations_journal': calibrationsJournalMigration(dialect.schema),
    '070_partitioned_measurements': partitionedMeasurementsMigration(dialect.kind, log),
    '071_history_pending': historyPendingMigration(dialect.kind),
    '072_leases': leasesMigration(dialect.kind),
    '080_claims': claimsMigration(dialect.schema),
    '085_dose_judging': doseJudgingMigration(dialect.schema, dialect.kind),
    '086_unusual_alerts': unusualAlertsMigration(dialect.kind),
    '095_decision_history': decisionHistoryMigration(dialect.schema),
    '096_settings_changes': settingsChangesMigration(dialect.schema),
    '100_notifications': notificationsMigration(dialect.schema),
    '105_aims': aimsMigration(dialect.schema),
    '110_device_token_tanks': deviceTokenTanksMigration(),
  };
  return { getMigrations: async () => migrations };
}
