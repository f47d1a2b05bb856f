import type { Kysely } from 'kysely';
import { type AlertKind, type AlertSeverity, type AlertState, LEVEL_ALERT_KINDS, type Level } from '../../domain/alert.js';
import type { Database, StoredAlert, StoredNotification } from '../database.js';
import type { Dialect } from '../dialect.js';
import { reusableQuery } from '../reusable-query.js';

/**
 * An alert with its prototype, as the API shows it: its sensor's, for an actuator's alert its
 * actuator's sensor's; null for the service's own.
 */
export type AlertRow = StoredAlert & { prototype_id: number | null };
/** An alert about a sensor: the ones the level evaluation keeps. */
export type SensorAlertRow = StoredAlert & { sensor_id: number; prototype_id: number };

export interface AlertFilter {
  state?: AlertState;
  sensorId?: number;
  prototypeId?: number;
  /** Only alerts with a lower id (paging, newest first). */
  before?: number;
  limit: number;
}

export interface NewAlert {
  /** Null for an alert about the service itself (with `actuator_id` null too) or about an actuator. */
  sensor_id: number | null;
  actuator_id?: number | null;
  kind: AlertKind;
  severity: AlertSeverity;
  raised_at: number;
  value: number | null;
  peak: number | null;
}

export type AlertChange = Partial<Pick<StoredAlert, 'severity' | 'state' | 'cleared_at' | 'peak' | 'last_value'>>;

/** A sensor's level as its alerts were last evaluated, and the clear and de-escalation it awaits (epoch ms, or null). */
export interface StoredLevel {
  level: Level | null;
  ok_since: number | null;
  calm_since: number | null;
}

export interface NewNotification {
  alert_id: number;
  url: string;
  idempotency_key: string;
  payload: string;
  created_at: number;
}

const ALERT_COLUMNS = [
  'alerts.alert_id',
  'alerts.sensor_id',
  'alerts.actuator_id',
  'sensors.prototype_id',
  'alerts.kind',
  'alerts.severity',
  'alerts.state',
  'alerts.raised_at',
  'alerts.cleared_at',
  'alerts.acknowledged_at',
  'alerts.acknowledged_by',
  'alerts.value',
  'alerts.peak',
  'alerts.last_value',
] as const;

/** Alerts with their prototype. An actuator's alert names no sensor: its prototype is its actuator's sensor's. */
const alertsWithSensor = (db: Kysely<Database>) =>
  db
    .selectFrom('alerts')
    .leftJoin('actuators', 'actuators.actuator_id', 'alerts.actuator_id')
    .leftJoin('sensors', (join) => join.on((eb) => eb('sensors.sensor_id', '=', eb.fn.coalesce('alerts.sensor_id', 'actuators.sensor_id'))))
    .select(ALERT_COLUMNS);

// What every evaluation of a sensor's level runs (at every reading of a sensor out of range),
// built once: see reusable-query.ts.
const activeLevelAlerts = reusableQuery((db, _dialect, sensorId: number) =>
  alertsWithSensor(db)
    .where('alerts.state', '=', 'active')
    .where('alerts.sensor_id', '=', sensorId)
    .where('alerts.kind', 'in', [...LEVEL_ALERT_KINDS])
    .orderBy('alerts.alert_id'),
);
const addLevelRow = reusableQuery((db, _dialect, sensorId: number) =>
  db
    .insertInto('alert_levels')
    .values({ sensor_id: sensorId, level: null, ok_since: null, calm_since: null })
    .onConflict((oc) => oc.column('sensor_id').doNothing()),
);
const levelRow = (db: Kysely<Database>, sensorId: number) =>
  db.selectFrom('alert_levels').select(['level', 'ok_since', 'calm_since']).where('sensor_id', '=', sensorId);
const lockedLevel = reusableQuery((db, dialect, sensorId: number) => dialect.forUpdate(levelRow(db, sensorId)));
const lockedLevelUnlessBusy = reusableQuery((db, dialect, sensorId: number) => dialect.forUpdateSkipLocked(levelRow(db, sensorId)));
const followValue = reusableQuery((db, _dialect, alertId: number, lastValue: number | null, peak: number | null) =>
  db.updateTable('alerts').set({ last_value: lastValue, peak }).where('alert_id', '=', alertId),
);

/** Alerts, each sensor's evaluated level, and the webhook outbox. */
export function alertRepository(db: Kysely<Database>, dialect: Dialect) {
  const withSensor = () => alertsWithSensor(db);

  /** The first undelivered notification of each alert for `url`: later ones wait for it (in order per alert). */
  const headsOf = (url: string) =>
    db
      .selectFrom('alert_notifications as n')
      .where('n.url', '=', url)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('alert_notifications as p')
              .select('p.notification_id')
              .whereRef('p.url', '=', 'n.url')
              .whereRef('p.alert_id', '=', 'n.alert_id')
              .whereRef('p.notification_id', '<', 'n.notification_id'),
          ),
        ),
      );

  return {
    get(alertId: number): Promise<AlertRow | undefined> {
      return withSensor().where('alerts.alert_id', '=', alertId).executeTakeFirst();
    },

    /** Newest first. */
    list(filter: AlertFilter): Promise<AlertRow[]> {
      let query = withSensor();
      if (filter.state) query = query.where('alerts.state', '=', filter.state);
      if (filter.sensorId !== undefined) query = query.where('alerts.sensor_id', '=', filter.sensorId);
      if (filter.prototypeId !== undefined) query = query.where('sensors.prototype_id', '=', filter.prototypeId);
      if (filter.before !== undefined) query = query.where('alerts.alert_id', '<', filter.before);
      return query.orderBy('alerts.alert_id', 'desc').limit(filter.limit).execute();
    },

    /** The active sensor alerts of some sensors (all of them when none are named), of some kinds (any when none are named), oldest first. */
    active(sensorIds?: readonly number[], kinds?: readonly AlertKind[]): Promise<SensorAlertRow[]> {
      let query = withSensor().where('alerts.state', '=', 'active').where('alerts.sensor_id', 'is not', null);
      if (sensorIds) query = query.where('alerts.sensor_id', 'in', sensorIds.length ? [...sensorIds] : [-1]);
      if (kinds) query = query.where('alerts.kind', 'in', kinds.length ? [...kinds] : ['-' as AlertKind]);
      return query.orderBy('alerts.alert_id').execute() as Promise<SensorAlertRow[]>;
    },

    /** The sensor's active alerts of the kinds its level raises (`LEVEL_ALERT_KINDS`), oldest first. */
    activeLevelAlerts(sensorId: number): Promise<SensorAlertRow[]> {
      return activeLevelAlerts(db, dialect, sensorId) as Promise<SensorAlertRow[]>;
    },

    /** The sensor's active alert of a kind, if any. */
    activeOfSensor(sensorId: number, kind: AlertKind): Promise<SensorAlertRow | undefined> {
      return withSensor()
        .where('alerts.state', '=', 'active')
        .where('alerts.kind', '=', kind)
        .where('alerts.sensor_id', '=', sensorId)
        .executeTakeFirst() as Promise<SensorAlertRow | undefined>;
    },

    /** The service's own active alert of a kind (no sensor, no actuator), if any. */
    activeOfService(kind: AlertKind): Promise<AlertRow | undefined> {
      return withSensor()
        .where('alerts.state', '=', 'active')
        .where('alerts.kind', '=', kind)
        .where('alerts.sensor_id', 'is', null)
        .where('alerts.actuator_id', 'is', null)
        .executeTakeFirst();
    },

    /** The actuator's active alert of a kind, if any. */
    activeOfActuator(actuatorId: number, kind: AlertKind): Promise<AlertRow | undefined> {
      return withSensor()
        .where('alerts.state', '=', 'active')
        .where('alerts.kind', '=', kind)
        .where('alerts.actuator_id', '=', actuatorId)
        .executeTakeFirst();
    },

    /** The active alerts about actuators (of these kinds), oldest first. */
    activeOfActuators(kinds: readonly AlertKind[]): Promise<AlertRow[]> {
      return withSensor()
        .where('alerts.state', '=', 'active')
        .where('alerts.actuator_id', 'is not', null)
        .where('alerts.kind', 'in', kinds.length ? [...kinds] : ['-' as AlertKind])
        .orderBy('alerts.alert_id')
        .execute();
    },

    raise(alert: NewAlert): Promise<StoredAlert> {
      return db
        .insertInto('alerts')
        .values({ ...alert, raised_at: dialect.time(alert.raised_at), state: 'active', last_value: alert.value })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** An open alert's newest value and peak, as a sensor out of range reads again. */
    async followValue(alertId: number, lastValue: number | null, peak: number | null): Promise<void> {
      await followValue(db, dialect, alertId, lastValue, peak);
    },

    change(alertId: number, change: AlertChange): Promise<StoredAlert> {
      const { cleared_at, ...rest } = change;
      return db
        .updateTable('alerts')
        .set({ ...rest, ...(cleared_at === undefined || cleared_at === null ? {} : { cleared_at: dialect.time(cleared_at) }) })
        .where('alert_id', '=', alertId)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Records the first acknowledgement; undefined when the alert does not exist or was acknowledged already. */
    async acknowledge(alertId: number, at: number, by: string | null): Promise<StoredAlert | undefined> {
      return db
        .updateTable('alerts')
        .set({ acknowledged_at: dialect.time(at), acknowledged_by: by })
        .where('alert_id', '=', alertId)
        .where('acknowledged_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
    },

    /** Records who ended what the alert was about (an unlock): `by` replaces an earlier acknowledger, the first time stays. */
    async acknowledgeAs(alertId: number, at: number, by: string | null): Promise<void> {
      await db
        .updateTable('alerts')
        .set((eb) => ({
          acknowledged_at: eb.fn.coalesce('acknowledged_at', eb.val(dialect.time(at))),
          ...(by === null ? {} : { acknowledged_by: by }),
        }))
        .where('alert_id', '=', alertId)
        .execute();
    },

    /**
     * Inside a transaction: the sensor's evaluated level, its row locked so evaluations of one
     * sensor take turns. With `skipLocked`, undefined when another transaction holds it.
     */
    async lockLevel(sensorId: number, skipLocked = false): Promise<StoredLevel | undefined> {
      await addLevelRow(db, dialect, sensorId);
      const [row] = await (skipLocked ? lockedLevelUnlessBusy : lockedLevel)(db, dialect, sensorId);
      return row;
    },

    async saveLevel(
      sensorId: number,
      { level, okSince, calmSince }: { level: Level | null; okSince: number | null; calmSince: number | null },
    ) {
      const time = (ms: number | null) => (ms === null ? null : dialect.time(ms));
      await db
        .updateTable('alert_levels')
        .set({ level, ok_since: time(okSince), calm_since: time(calmSince) })
        .where('sensor_id', '=', sensorId)
        .execute();
    },

    levels(): Promise<({ sensor_id: number } & StoredLevel)[]> {
      return db.selectFrom('alert_levels').select(['sensor_id', 'level', 'ok_since', 'calm_since']).execute();
    },

    /** With the sensors being deleted (same transaction): what the store derived from them goes too. */
    async sensorsRemoved(sensorIds: readonly number[]): Promise<void> {
      if (sensorIds.length === 0) return;
      await db
        .deleteFrom('alerts')
        .where('sensor_id', 'in', [...sensorIds])
        .execute();
      await db
        .deleteFrom('alert_levels')
        .where('sensor_id', 'in', [...sensorIds])
        .execute();
    },

    async enqueue(notifications: readonly NewNotification[]): Promise<void> {
      if (notifications.length === 0) return;
      await db
        .insertInto('alert_notifications')
        .values(notifications.map((n) => ({ ...n, created_at: dialect.time(n.created_at), next_attempt_at: dialect.time(n.created_at) })))
        .execute();
    },

    /** Notifications for `url` due by `now`, each the first still undelivered of its alert, oldest first. */
    due(url: string, now: number, limit: number): Promise<StoredNotification[]> {
      return headsOf(url)
        .selectAll('n')
        .where('n.next_attempt_at', '<=', dialect.at(now))
        .orderBy('n.notification_id')
        .limit(limit)
        .execute();
    },

    /** When the next notification for `url` falls due (undefined: none waiting). */
    async nextDue(url: string): Promise<number | undefined> {
      const row = await headsOf(url)
        .select((eb) => eb.fn.min('n.next_attempt_at').as('at'))
        .executeTakeFirst();
      return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
    },

    /** Delivered, or given up on: gone from the outbox. */
    async done(notificationId: number): Promise<void> {
      await db.deleteFrom('alert_notifications').where('notification_id', '=', notificationId).execute();
    },

    async retryAt(notificationId: number, at: number, error: string): Promise<void> {
      await db
        .updateTable('alert_notifications')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: dialect.time(at), last_error: error.slice(0, 500) }))
        .where('notification_id', '=', notificationId)
        .execute();
    },

    /** How many notifications wait, per URL (tests, and the log at start). */
    async waiting(): Promise<number> {
      const row = await db
        .selectFrom('alert_notifications')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type AlertRepository = ReturnType<typeof alertRepository>;
