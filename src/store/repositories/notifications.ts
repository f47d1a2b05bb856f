import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { Dialect } from '../dialect.js';

/** A channel as stored: its type's plain settings parsed, its secrets still sealed. */
export interface StoredChannel {
  channel_id: number;
  type: string;
  name: string;
  min_severity: string;
  prototype_ids: number[] | null;
  quiet_from: string | null;
  quiet_to: string | null;
  escalation: boolean;
  settings: Record<string, string>;
  sealed: string | null;
  created_at: number;
  failing_since: number | null;
  failure_told: boolean;
}

export type ChannelFields = Omit<StoredChannel, 'channel_id' | 'created_at' | 'failing_since' | 'failure_told'>;

/** An alert with what a message about it names: its tank, sensor and pump. */
export interface FollowedAlert {
  alert_id: number;
  sensor_id: number | null;
  actuator_id: number | null;
  kind: string;
  severity: string;
  state: string;
  raised_at: number;
  cleared_at: number | null;
  acknowledged_at: number | null;
  acknowledged_by: string | null;
  value: number | null;
  last_value: number | null;
  prototype_id: number | null;
  prototype_name: string | null;
  sensor_name: string | null;
  sensor_unit: string | null;
  actuator_name: string | null;
  lockout_reason: string | null;
}

export interface NotificationProgress {
  alert_id: number;
  severity: string;
  critical_since: number | null;
  sends: number;
  next_repeat_at: number | null;
  escalated: boolean;
  finished: boolean;
}

export interface OutboxMessage {
  alert_id: number;
  url: string;
  idempotency_key: string;
  payload: string;
  created_at: number;
  next_attempt_at: number;
}

const ms = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Notification channels, each alert's progress through its messages, and the acknowledge links used. */
export function notificationRepository(db: Kysely<Database>, dialect: Dialect) {
  const channelOf = (row: Record<string, unknown>): StoredChannel => ({
    channel_id: Number(row.channel_id),
    type: String(row.type),
    name: String(row.name),
    min_severity: String(row.min_severity),
    prototype_ids: row.prototype_ids === null ? null : (JSON.parse(String(row.prototype_ids)) as number[]),
    quiet_from: (row.quiet_from as string | null) ?? null,
    quiet_to: (row.quiet_to as string | null) ?? null,
    escalation: Boolean(row.escalation),
    settings: JSON.parse(String(row.settings)) as Record<string, string>,
    sealed: (row.sealed as string | null) ?? null,
    created_at: Number(row.created_at),
    failing_since: ms(row.failing_since),
    failure_told: Boolean(row.failure_told),
  });
  const columns = (c: ChannelFields) => ({
    type: c.type,
    name: c.name,
    min_severity: c.min_severity,
    prototype_ids: c.prototype_ids === null ? null : JSON.stringify(c.prototype_ids),
    quiet_from: c.quiet_from,
    quiet_to: c.quiet_to,
    escalation: dialect.bool(c.escalation),
    settings: JSON.stringify(c.settings),
    sealed: c.sealed,
  });
  const progressOf = (row: Record<string, unknown>): NotificationProgress => ({
    alert_id: Number(row.alert_id),
    severity: String(row.severity),
    critical_since: ms(row.critical_since),
    sends: Number(row.sends),
    next_repeat_at: ms(row.next_repeat_at),
    escalated: Boolean(row.escalated),
    finished: Boolean(row.finished),
  });

  return {
    async channels(): Promise<StoredChannel[]> {
      const rows = await db.selectFrom('notification_channels').selectAll().orderBy('channel_id').execute();
      return rows.map((r) => channelOf(r as unknown as Record<string, unknown>));
    },

    async channel(channelId: number): Promise<StoredChannel | undefined> {
      const row = await db.selectFrom('notification_channels').selectAll().where('channel_id', '=', channelId).executeTakeFirst();
      return row ? channelOf(row as unknown as Record<string, unknown>) : undefined;
    },

    async addChannel(fields: ChannelFields, at: number): Promise<StoredChannel> {
      const row = await db
        .insertInto('notification_channels')
        .values({ ...columns(fields), created_at: dialect.time(at), failing_since: null, failure_told: dialect.bool(false) })
        .returningAll()
        .executeTakeFirstOrThrow();
      return channelOf(row as unknown as Record<string, unknown>);
    },

    async replaceChannel(channelId: number, fields: ChannelFields): Promise<StoredChannel | undefined> {
      const row = await db
        .updateTable('notification_channels')
        .set(columns(fields))
        .where('channel_id', '=', channelId)
        .returningAll()
        .executeTakeFirst();
      return row ? channelOf(row as unknown as Record<string, unknown>) : undefined;
    },

    /** The channel and the messages still waiting for it. */
    async removeChannel(channelId: number, destination: string): Promise<boolean> {
      const result = await db.deleteFrom('notification_channels').where('channel_id', '=', channelId).executeTakeFirst();
      await db.deleteFrom('alert_notifications').where('url', '=', destination).execute();
      return Number(result.numDeletedRows) > 0;
    },

    /** Since when the channel's deliveries fail (null: they succeed again), and whether the others were told. */
    async setFailing(channelId: number, since: number | null, told: boolean): Promise<void> {
      await db
        .updateTable('notification_channels')
        .set({ failing_since: since === null ? null : dialect.time(since), failure_told: dialect.bool(told) })
        .where('channel_id', '=', channelId)
        .execute();
    },

    /** Active alerts, alerts newer than `afterAlertId`, and alerts whose messages are not finished. */
    async alertsToFollow(afterAlertId: number): Promise<FollowedAlert[]> {
      const rows = await db
        .selectFrom('alerts')
        .leftJoin('actuators', 'actuators.actuator_id', 'alerts.actuator_id')
        .leftJoin('sensors', (join) =>
          join.on((eb) => eb('sensors.sensor_id', '=', eb.fn.coalesce('alerts.sensor_id', 'actuators.sensor_id'))),
        )
        .leftJoin('prototypes', 'prototypes.prototype_id', 'sensors.prototype_id')
        .select([
          'alerts.alert_id',
          'alerts.sensor_id',
          'alerts.actuator_id',
          'alerts.kind',
          'alerts.severity',
          'alerts.state',
          'alerts.raised_at',
          'alerts.cleared_at',
          'alerts.acknowledged_at',
          'alerts.acknowledged_by',
          'alerts.value',
          'alerts.last_value',
          'sensors.prototype_id',
          'prototypes.prototype_name',
          'sensors.sensor_name',
          'sensors.sensor_unit',
          'actuators.actuator_name',
          'actuators.lockout_reason',
        ])
        .where((eb) =>
          eb.or([
            eb('alerts.state', '=', 'active'),
            eb('alerts.alert_id', '>', afterAlertId),
            eb(
              'alerts.alert_id',
              'in',
              eb.selectFrom('notification_progress').select('notification_progress.alert_id').where('finished', '=', dialect.bool(false)),
            ),
          ]),
        )
        .orderBy('alerts.alert_id')
        .limit(1000)
        .execute();
      return rows.map((r) => ({
        ...(r as unknown as FollowedAlert),
        raised_at: Number(r.raised_at),
        cleared_at: ms(r.cleared_at),
        acknowledged_at: ms(r.acknowledged_at),
        prototype_id: r.prototype_id ?? null,
        prototype_name: r.prototype_name ?? null,
        sensor_name: r.sensor_name ?? null,
        sensor_unit: r.sensor_unit ?? null,
        actuator_name: r.actuator_name ?? null,
        lockout_reason: r.lockout_reason ?? null,
      }));
    },

    async progress(alertIds: readonly number[]): Promise<Map<number, NotificationProgress>> {
      if (alertIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('notification_progress')
        .selectAll()
        .where('alert_id', 'in', [...alertIds])
        .execute();
      return new Map(rows.map((r) => [Number(r.alert_id), progressOf(r as unknown as Record<string, unknown>)]));
    },

    async saveProgress(p: NotificationProgress): Promise<void> {
      const values = {
        severity: p.severity,
        critical_since: p.critical_since === null ? null : dialect.time(p.critical_since),
        sends: p.sends,
        next_repeat_at: p.next_repeat_at === null ? null : dialect.time(p.next_repeat_at),
        escalated: dialect.bool(p.escalated),
        finished: dialect.bool(p.finished),
      };
      await db
        .insertInto('notification_progress')
        .values({ alert_id: p.alert_id, ...values })
        .onConflict((oc) => oc.column('alert_id').doUpdateSet(values))
        .execute();
    },

    /** Messages for `destination` about an alert held back (quiet hours) go now: a critical one must not wait behind them. */
    async releaseHeld(destination: string, alertId: number, at: number): Promise<void> {
      await db
        .updateTable('alert_notifications')
        .set({ next_attempt_at: dialect.time(at) })
        .where('url', '=', destination)
        .where('alert_id', '=', alertId)
        .where('attempts', '=', 0)
        .where('next_attempt_at', '>', dialect.at(at))
        .execute();
    },

    /** Messages into the alert outbox, each going at its own time (a warning in quiet hours waits for their end). */
    async enqueue(rows: readonly OutboxMessage[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto('alert_notifications')
        .values(rows.map((n) => ({ ...n, created_at: dialect.time(n.created_at), next_attempt_at: dialect.time(n.next_attempt_at) })))
        .execute();
    },

    /** The newest alert's id (0: none yet). */
    async newestAlertId(): Promise<number> {
      const row = await db
        .selectFrom('alerts')
        .select((eb) => eb.fn.max('alert_id').as('id'))
        .executeTakeFirst();
      return Number(row?.id ?? 0);
    },

    async linkUsed(nonce: string): Promise<boolean> {
      return (await db.selectFrom('notification_links_used').select('nonce').where('nonce', '=', nonce).executeTakeFirst()) !== undefined;
    },

    /** Records a link's single use; false when it was used already. */
    async useLink(nonce: string, at: number): Promise<boolean> {
      const result = await db
        .insertInto('notification_links_used')
        .values({ nonce, used_at: dialect.time(at) })
        .onConflict((oc) => oc.column('nonce').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
  };
}

export type NotificationRepository = ReturnType<typeof notificationRepository>;
