import { type Kysely, sql } from 'kysely';
import type { Database, DbBool, DbTime, DefaultedBool } from './database.js';
import { insidesOf } from './insides.js';
import type { Store } from './store.js';
import type { StoredMeasurement } from './database.js';
import { measurementRepository } from './repositories/measurements.js';
import { binaryRows } from './postgres/binary-copy.js';
import { copyRowsIn } from './postgres/bulk-load.js';
import { daysOf, makeDayPartitions } from './postgres/partitions.js';

export interface CopyProgress {
  (table: string, copied: number, total: number): void;
}

/** Every table, parents before the tables that refer to them. */
const TABLES = [
  'prototypes',
  'sensors',
  'actuators',
  'actuator_interlocks',
  'activations',
  'refills',
  'calibrations',
  'notes',
  'note_tags',
  'safety_events',
  'actuator_decisions',
  'settings_changes',
  'users',
  'device_tokens',
  'settings',
  'pictures',
  'measurements',
  'alerts',
  'alert_levels',
  'alert_notifications',
  'notification_channels',
  'notification_progress',
  'notification_links_used',
] as const satisfies readonly (keyof Database)[];
type Table = (typeof TABLES)[number];

/** How a column's value travels from one store to the other, as its type in `Database` says. */
type Conversion<Column> = Column extends DbTime | null
  ? 'time'
  : Column extends DbBool
    ? 'bool'
    : [DefaultedBool] extends [Column]
      ? 'bool'
      : Column extends Uint8Array
        ? 'bytes'
        : 'as-is';

/** A table's key: one column, or the columns of a composite key in order. */
type KeyOf<T extends Table> = (keyof Database[T] & string) | readonly (keyof Database[T] & string)[];

/**
 * Each table's key and each of its columns with its conversion. The compiler checks it against
 * the table types: a column added to a table must be listed here, with the conversion its type needs.
 */
const COLUMNS: { [T in Table]: { key: KeyOf<T>; columns: { [C in keyof Database[T]]-?: Conversion<Database[T][C]> } } } = {
  prototypes: { key: 'prototype_id', columns: { prototype_id: 'as-is', prototype_name: 'as-is', paused_until: 'time' } },
  sensors: {
    key: 'sensor_id',
    columns: {
      sensor_id: 'as-is',
      sensor_type: 'as-is',
      prototype_id: 'as-is',
      sensor_unit: 'as-is',
      threshold_critically_low: 'as-is',
      threshold_low: 'as-is',
      threshold_high: 'as-is',
      threshold_critically_high: 'as-is',
      valid_min: 'as-is',
      valid_max: 'as-is',
      stale_after: 'as-is',
      stuck_after: 'as-is',
      sensor_name: 'as-is',
      calibration_interval: 'as-is',
      calibrated_at: 'time',
      calibration_due: 'time',
    },
  },
  actuators: {
    key: 'actuator_id',
    columns: {
      actuator_id: 'as-is',
      actuator_type: 'as-is',
      sensor_id: 'as-is',
      condition_value: 'as-is',
      activation_condition: 'as-is',
      activation_period: 'as-is',
      activation_duration: 'as-is',
      actuator_name: 'as-is',
      enabled: 'bool',
      last_activated: 'time',
      max_doses_per_hour: 'as-is',
      max_seconds_per_day: 'as-is',
      min_response: 'as-is',
      response_delay: 'as-is',
      lockout_after: 'as-is',
      controller_timeout: 'as-is',
      lockout_reversed_after: 'as-is',
      usual_days: 'as-is',
      usual_window: 'as-is',
      unusual_factor: 'as-is',
      usual_since: 'time',
      lockout_kind: 'as-is',
      flow_ml_per_s: 'as-is',
      max_ml_per_day: 'as-is',
      stock_ml: 'as-is',
      stock_low_ml: 'as-is',
      setpoint: 'as-is',
      band: 'as-is',
      dose_mode: 'as-is',
      dose_fraction: 'as-is',
      min_duration: 'as-is',
      max_duration: 'as-is',
      initial_gain: 'as-is',
      dose_order: 'as-is',
      schedule: 'as-is',
      learned_gain: 'as-is',
      lockout_since: 'time',
      lockout_reason: 'as-is',
      unanswered_streak: 'as-is',
      last_polled: 'time',
      controller: 'as-is',
      claim_until: 'time',
      claim_activation_id: 'as-is',
      manual_run_seconds: 'as-is',
    },
  },
  actuator_interlocks: {
    key: ['actuator_id', 'position'],
    columns: { actuator_id: 'as-is', position: 'as-is', sensor_id: 'as-is', block_below: 'as-is', block_above: 'as-is' },
  },
  activations: {
    key: 'activation_id',
    columns: {
      activation_id: 'as-is',
      actuator_id: 'as-is',
      activated_at: 'time',
      duration: 'as-is',
      value_before: 'as-is',
      answered: 'bool',
      response: 'as-is',
      reversed: 'bool',
      volume_ml: 'as-is',
      moved: 'as-is',
      reported: 'bool',
      manual: 'bool',
    },
  },
  refills: {
    key: 'refill_id',
    columns: { refill_id: 'as-is', actuator_id: 'as-is', refilled_at: 'time', stock_ml: 'as-is', author: 'as-is' },
  },
  calibrations: {
    key: 'calibration_id',
    columns: {
      calibration_id: 'as-is',
      sensor_id: 'as-is',
      calibrated_at: 'time',
      points: 'as-is',
      slope: 'as-is',
      offset: 'as-is',
      accepted: 'bool',
      note: 'as-is',
      author: 'as-is',
    },
  },
  notes: { key: 'note_id', columns: { note_id: 'as-is', prototype_id: 'as-is', at: 'time', text: 'as-is', author: 'as-is' } },
  note_tags: { key: ['note_id', 'position'], columns: { note_id: 'as-is', position: 'as-is', tag: 'as-is' } },
  safety_events: {
    key: 'event_id',
    columns: {
      event_id: 'as-is',
      kind: 'as-is',
      at: 'time',
      actuator_id: 'as-is',
      prototype_id: 'as-is',
      until: 'time',
      reason: 'as-is',
      author: 'as-is',
    },
  },
  actuator_decisions: {
    key: 'decision_id',
    columns: { decision_id: 'as-is', actuator_id: 'as-is', at: 'time', reason: 'as-is', status: 'as-is', activate: 'bool', by: 'as-is' },
  },
  settings_changes: {
    key: 'change_id',
    columns: {
      change_id: 'as-is',
      at: 'time',
      prototype_id: 'as-is',
      actuator_id: 'as-is',
      sensor_id: 'as-is',
      author: 'as-is',
      changes: 'as-is',
    },
  },
  users: {
    key: 'user_id',
    columns: {
      user_id: 'as-is',
      username: 'as-is',
      password_hash: 'as-is',
      permissions: 'as-is',
      created_at: 'time',
      tokens_valid_after: 'time',
      token_generation: 'as-is',
      session_generation: 'as-is',
    },
  },
  device_tokens: {
    key: 'token_id',
    columns: {
      token_id: 'as-is',
      user_id: 'as-is',
      name: 'as-is',
      created_at: 'time',
      expires_at: 'time',
      last_used_at: 'time',
      prototype_ids: 'as-is',
    },
  },
  settings: { key: 'key', columns: { key: 'as-is', value: 'as-is' } },
  pictures: { key: 'picture_id', columns: { picture_id: 'as-is', content_type: 'as-is', bytes: 'bytes', updated_at: 'time' } },
  measurements: { key: 'measurement_id', columns: { measurement_id: 'as-is', sensor_id: 'as-is', value: 'as-is', timestamp: 'time' } },
  alerts: {
    key: 'alert_id',
    columns: {
      alert_id: 'as-is',
      sensor_id: 'as-is',
      actuator_id: 'as-is',
      kind: 'as-is',
      severity: 'as-is',
      state: 'as-is',
      raised_at: 'time',
      cleared_at: 'time',
      acknowledged_at: 'time',
      acknowledged_by: 'as-is',
      value: 'as-is',
      peak: 'as-is',
      last_value: 'as-is',
    },
  },
  alert_levels: { key: 'sensor_id', columns: { sensor_id: 'as-is', level: 'as-is', ok_since: 'time', calm_since: 'time' } },
  alert_notifications: {
    key: 'notification_id',
    columns: {
      notification_id: 'as-is',
      alert_id: 'as-is',
      url: 'as-is',
      idempotency_key: 'as-is',
      payload: 'as-is',
      created_at: 'time',
      attempts: 'as-is',
      next_attempt_at: 'time',
      last_error: 'as-is',
    },
  },
  // Channel secrets travel only in their sealed form (`sealed`), as they are stored.
  notification_channels: {
    key: 'channel_id',
    columns: {
      channel_id: 'as-is',
      type: 'as-is',
      name: 'as-is',
      min_severity: 'as-is',
      prototype_ids: 'as-is',
      quiet_from: 'as-is',
      quiet_to: 'as-is',
      escalation: 'bool',
      settings: 'as-is',
      sealed: 'as-is',
      created_at: 'time',
      failing_since: 'time',
      failure_told: 'bool',
    },
  },
  notification_progress: {
    key: 'alert_id',
    columns: {
      alert_id: 'as-is',
      severity: 'as-is',
      critical_since: 'time',
      sends: 'as-is',
      next_repeat_at: 'time',
      escalated: 'bool',
      finished: 'bool',
    },
  },
  notification_links_used: { key: 'nonce', columns: { nonce: 'as-is', used_at: 'time' } },
};

/** Tables whose ids the store assigns: the target's next id must follow the copied ones. */
const IDENTITIES: Partial<Record<Table, string>> = {
  sensors: 'sensor_id',
  actuators: 'actuator_id',
  activations: 'activation_id',
  refills: 'refill_id',
  calibrations: 'calibration_id',
  notes: 'note_id',
  safety_events: 'event_id',
  actuator_decisions: 'decision_id',
  settings_changes: 'change_id',
  users: 'user_id',
  device_tokens: 'token_id',
  measurements: 'measurement_id',
  alerts: 'alert_id',
  alert_notifications: 'notification_id',
  notification_channels: 'channel_id',
};

const BATCH = 5_000;

type Row = Record<string, unknown>;

/**
 * Rows of any table, read and written by name. The copy walks the table list, which the query
 * builder cannot type one table at a time: this is its one untyped view of the store.
 */
function anyTable(db: Kysely<Database>) {
  const untyped = db as unknown as Kysely<Record<string, Row>>;
  return {
    /** The next batch of rows in key order, after the row whose key is `after` (a composite key compares as a row value). */
    page: (table: Table, key: readonly string[], after: Row | undefined) => {
      let query = untyped.selectFrom(table).selectAll().limit(BATCH);
      for (const column of key) query = query.orderBy(column);
      if (after !== undefined) {
        const row = (columns: readonly unknown[]) => sql.join(columns);
        query = query.where(sql<boolean>`(${row(key.map((c) => sql.ref(c)))}) > (${row(key.map((c) => after[c]))})`);
      }
      return query.execute();
    },
    insert: (table: Table, rows: Row[]) => untyped.insertInto(table).values(rows).execute(),
  };
}

/** Each table's rows. */
export async function rowCounts(store: Store): Promise<Record<Table, number>> {
  const { db } = insidesOf(store);
  const counts = {} as Record<Table, number>;
  for (const table of TABLES) {
    // Measurements are counted as every sensor's, the way each of their queries names its sensors.
    const bySensor = table === 'measurements' ? sql` where sensor_id in (select sensor_id from sensors)` : sql``;
    const row = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}${bySensor}`.execute(db);
    counts[table] = Number(row.rows[0].n);
  }
  return counts;
}

/** Empties every table, in one transaction. */
export async function clear(store: Store): Promise<void> {
  const { db, dialect } = insidesOf(store);
  if (dialect.kind === 'postgres') {
    // One statement, no dead rows: the day partitions are emptied whole.
    await sql`truncate ${sql.join([...TABLES, 'history_buckets', 'history_pending'].map((t) => sql.table(t)))}`.execute(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('history_buckets').execute();
    for (const table of [...TABLES].reverse()) await trx.deleteFrom(table).execute();
  });
}

/**
 * Copies every table from one store to another (either kind), in key order and in batches, with
 * the values converted to the target's types; then sets the target's id sequences past the copied
 * ids. The target must be migrated and empty.
 */
export async function copyStore(from: Store, to: Store, progress: CopyProgress): Promise<Record<Table, number>> {
  const totals = await rowCounts(from);
  const [source, target] = [anyTable(insidesOf(from).db), anyTable(insidesOf(to).db)];
  const { db: targetDb, dialect: targetDialect } = insidesOf(to);
  for (const table of TABLES) {
    const { key: declared, columns } = COLUMNS[table];
    const key: readonly string[] = typeof declared === 'string' ? [declared] : declared;
    const conversions = Object.entries(columns as Record<string, string>);
    const convert = (row: Row): Row => {
      const out = { ...row };
      for (const [column, conversion] of conversions) {
        const value = out[column];
        if (conversion === 'time') out[column] = value === null ? null : targetDialect.time(Number(value));
        else if (conversion === 'bool') out[column] = value === null ? null : targetDialect.bool(Boolean(value));
        else if (conversion === 'bytes') out[column] = Buffer.from(value as Uint8Array);
      }
      return out;
    };
    if (table === 'measurements') {
      await copyMeasurements(from, to, (copied) => progress(table, copied, totals[table]));
      await targetDialect.continueIdentity(targetDb, table, 'measurement_id');
      continue;
    }
    let copied = 0;
    let after: Row | undefined;
    for (;;) {
      const rows = await source.page(table, key, after);
      if (rows.length === 0) break;
      await target.insert(table, rows.map(convert));
      copied += rows.length;
      after = rows[rows.length - 1];
      progress(table, copied, totals[table]);
    }
    if (copied === 0) progress(table, 0, 0);
    const identity = IDENTITIES[table];
    if (identity) await targetDialect.continueIdentity(targetDb, table, identity);
  }
  await copyHistory(from, to, progress);
  return totals;
}

/** Rows per COPY into PostgreSQL, or per run of inserts into SQLite. */
const MEASUREMENTS_PER_BATCH = 50_000;

/**
 * The measurements, sensor by sensor in time order (each read is one sensor's: one shard of a
 * distributed store), into PostgreSQL by COPY in binary form with the day partitions made as the
 * rows meet them, into SQLite by batched inserts. Ids are kept.
 */
async function copyMeasurements(from: Store, to: Store, progress: (copied: number) => void): Promise<void> {
  const source = insidesOf(from);
  const target = insidesOf(to);
  const rows = measurementRepository(source.db, source.dialect);
  const knownDays = new Set<number>();
  let batch: StoredMeasurement[] = [];
  let copied = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const pending = batch;
    batch = [];
    if (target.pool) {
      const fresh = daysOf(pending.map((r) => r.timestamp)).filter((d) => !knownDays.has(d));
      if (fresh.length > 0) {
        await makeDayPartitions(target.db, fresh);
        for (const d of fresh) knownDays.add(d);
      }
      await copyRowsIn(
        target.pool,
        'copy measurements (measurement_id, sensor_id, value, timestamp) from stdin (format binary)',
        binaryRows(['int8', 'int4', 'float8', 'timestamptz'], pending.length, (i, out) => {
          const r = pending[i];
          out[0] = r.measurement_id;
          out[1] = r.sensor_id;
          out[2] = r.value;
          out[3] = r.timestamp;
        }),
      );
    } else {
      for (let i = 0; i < pending.length; i += BATCH) {
        await target.db
          .insertInto('measurements')
          .values(pending.slice(i, i + BATCH).map((r) => ({ ...r, timestamp: target.dialect.time(r.timestamp) })))
          .execute();
      }
    }
    copied += pending.length;
    progress(copied);
  };
  const sensorIds = (await source.db.selectFrom('sensors').select('sensor_id').orderBy('sensor_id').execute()).map((s) => s.sensor_id);
  for (const sensorId of sensorIds) {
    for await (const page of rows.walkWindow(sensorId, { endInclusive: false })) {
      for (const row of page) batch.push(row);
      if (batch.length >= MEASUREMENTS_PER_BATCH) await flush();
    }
  }
  await flush();
  if (copied === 0) progress(0);
}

/**
 * The history buckets, as they are: they hold what retention already took from the raw rows, so
 * they are copied rather than rebuilt. Plain numbers on both stores; paged by their composite key.
 */
async function copyHistory(from: Store, to: Store, progress: CopyProgress): Promise<void> {
  const [source, target] = [insidesOf(from).db, insidesOf(to).db];
  const total = Number(
    (
      await source
        .selectFrom('history_buckets')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  let copied = 0;
  let after: { sensor_id: number; size_ms: number; start_ms: number } | undefined;
  for (;;) {
    let query = source.selectFrom('history_buckets').selectAll().orderBy('sensor_id').orderBy('size_ms').orderBy('start_ms').limit(1000);
    if (after) {
      const { sensor_id, size_ms, start_ms } = after;
      query = query.where((eb) =>
        eb.or([
          eb('sensor_id', '>', sensor_id),
          eb.and([
            eb('sensor_id', '=', sensor_id),
            eb.or([eb('size_ms', '>', size_ms), eb.and([eb('size_ms', '=', size_ms), eb('start_ms', '>', start_ms)])]),
          ]),
        ]),
      );
    }
    const rows = await query.execute();
    if (rows.length === 0) break;
    await target.insertInto('history_buckets').values(rows).execute();
    copied += rows.length;
    after = rows[rows.length - 1];
    progress('history_buckets', copied, total);
  }
  if (copied === 0) progress('history_buckets', 0, 0);
}
