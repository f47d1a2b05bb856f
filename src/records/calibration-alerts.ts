import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';
import type { Sensor } from '../domain/sensor.js';
import { isUniqueViolation } from '../alerts/actuator-alerts.js';
import { type AlertNews, alertOf } from '../alerts/alert-json.js';
import { enqueueNotifications } from '../alerts/outbox.js';
import { isRelayed } from '../events/postgres-relay.js';
import type { Repositories, Store } from '../store/index.js';
import { settled } from '../core/settled.js';

export interface CalibrationAlertsDeps {
  store: Pick<Store, 'transaction' | 'sensors' | 'alerts'>;
  bus: ChangeBus;
  now: () => number;
  timers: Timers;
  log: Logger;
  webhookUrls: readonly string[];
}

const KIND = 'calibration_due';
const dueOf = (sensor: Pick<Sensor, 'calibration_due'>) => (sensor.calibration_due === null ? null : Date.parse(sensor.calibration_due));

/** Raises the sensor's calibration_due alert when it is past due and has none; the news, or undefined. */
async function raise(tx: Repositories, sensorId: number, at: number, webhookUrls: readonly string[]): Promise<AlertNews | undefined> {
  const sensor = await tx.sensors.get(sensorId);
  const due = sensor ? dueOf(sensor) : null;
  if (!sensor || due === null || due > at || (await tx.alerts.activeOfSensor(sensorId, KIND))) return undefined;
  const row = await tx.alerts.raise({ sensor_id: sensorId, kind: KIND, severity: 'warning', raised_at: due, value: null, peak: null });
  const news: AlertNews = { event: 'raised', alert: alertOf(row, sensor.prototype_id) };
  await enqueueNotifications(tx.alerts, webhookUrls, [news], at);
  return news;
}

/** Clears the sensor's calibration_due alert when it is no longer past due (or gone); the news, or undefined. */
async function clear(tx: Repositories, sensorId: number, at: number, webhookUrls: readonly string[]): Promise<AlertNews | undefined> {
  const active = await tx.alerts.activeOfSensor(sensorId, KIND);
  if (!active) return undefined;
  const sensor = await tx.sensors.get(sensorId);
  const due = sensor ? dueOf(sensor) : null;
  if (due !== null && due <= at) return undefined;
  const row = await tx.alerts.change(active.alert_id, { state: 'cleared', cleared_at: at });
  const news: AlertNews = { event: 'cleared', alert: alertOf(row, active.prototype_id) };
  await enqueueNotifications(tx.alerts, webhookUrls, [news], at);
  return news;
}

/**
 * The calibration_due alerts (docs/api.md §15): one alarm per sensor with a `calibration_due`, at that
 * instant (no sweep over the sensors); when it rings the sensor's warning is raised, dated at
 * the due instant. A sensor change that moves the due instant ahead, or turns the reminder off —
 * an accepted calibration, a longer or no interval — clears it. What is due and what is active is
 * known here (read at start, then followed through the sensor and alert changes of every
 * instance); each change is made in a transaction that looks again, so a restart in between, or
 * instances deciding the same thing at once, leave one alert.
 */
export function calibrationAlerts({ store, bus, now, timers, log, webhookUrls }: CalibrationAlertsDeps) {
  /** Each sensor's due instant (epoch ms), for those that have one. */
  const due = new Map<number, number>();
  const alarms = new Map<number, unknown>();
  /** The sensors with an active calibration_due alert. */
  const active = new Set<number>();
  /** The changes asked for and not made yet, by sensor: one at a time is enough. */
  const asked = new Map<number, 'raise' | 'clear'>();
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;
  const unsubscribe: (() => void)[] = [];

  function change(sensorId: number, what: 'raise' | 'clear'): void {
    if (stopped || asked.get(sensorId) === what) return;
    asked.set(sensorId, what);
    chain = chain.then(async () => {
      if (asked.get(sensorId) !== what) return;
      asked.delete(sensorId);
      try {
        const at = now();
        const news = await store.transaction((tx) => (what === 'raise' ? raise : clear)(tx, sensorId, at, webhookUrls));
        if (news) bus.publish('alert', news);
      } catch (error) {
        // Another instance raised it between our look and our insert: the unique index kept it to one.
        if (!isUniqueViolation(error)) log.error({ err: error, sensorId }, `changing the ${KIND} alert failed`);
      }
    });
  }

  /** The sensor's alarm at its due instant; past due without an alert, the alert at once. */
  function arm(sensorId: number): void {
    const alarm = alarms.get(sensorId);
    if (alarm !== undefined) timers.clear(alarm);
    alarms.delete(sensorId);
    const at = due.get(sensorId);
    if (at === undefined || stopped) return;
    if (at <= now()) {
      if (!active.has(sensorId)) change(sensorId, 'raise');
      return;
    }
    // An alarm further off than the timers reach rings early: it looks again and is set again.
    alarms.set(
      sensorId,
      timers.set(() => {
        alarms.delete(sensorId);
        arm(sensorId);
      }, at - now()),
    );
  }

  function follow(sensor: Sensor, relayed: boolean): void {
    const at = dueOf(sensor);
    if (at === null) due.delete(sensor.sensor_id);
    else due.set(sensor.sensor_id, at);
    // The instance that committed the change clears; every instance keeps its alarm.
    if (!relayed && active.has(sensor.sensor_id) && (at === null || at > now())) change(sensor.sensor_id, 'clear');
    arm(sensor.sensor_id);
  }

  function forget(sensorId: number): void {
    due.delete(sensorId);
    active.delete(sensorId);
    asked.delete(sensorId);
    arm(sensorId);
  }

  return {
    /** Reads the sensors and the active alerts, settles what changed while stopped, and sets the alarms. */
    async start(): Promise<void> {
      unsubscribe.push(
        bus.subscribe('sensor', (c) => (c.action === 'deleted' ? forget(c.sensorId) : follow(c.sensor, isRelayed(c)))),
        bus.subscribe('alert', ({ alert }) => {
          if (alert.kind !== KIND || alert.sensor_id === null) return;
          if (alert.state === 'active') active.add(alert.sensor_id);
          else active.delete(alert.sensor_id);
        }),
      );
      const [sensors, alerts] = await Promise.all([store.sensors.list(), store.alerts.active(undefined, [KIND])]);
      for (const alert of alerts) active.add(alert.sensor_id);
      for (const sensor of sensors) {
        const at = dueOf(sensor);
        if (at !== null) due.set(sensor.sensor_id, at);
      }
      for (const sensorId of active) {
        const at = due.get(sensorId);
        if (at === undefined || at > now()) change(sensorId, 'clear');
      }
      for (const sensorId of due.keys()) arm(sensorId);
    },

    /** Resolves once the changes asked for so far are made and published (tests). */
    idle: (): Promise<void> => settled(() => chain),

    async stop(): Promise<void> {
      stopped = true;
      for (const stop of unsubscribe.splice(0)) stop();
      for (const alarm of alarms.values()) timers.clear(alarm);
      alarms.clear();
      await chain;
    },
  };
}

export type CalibrationAlerts = ReturnType<typeof calibrationAlerts>;
