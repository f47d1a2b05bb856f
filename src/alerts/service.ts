import type { Activation } from '../domain/activation.js';
import type { ChangeBus } from '../core/bus.js';
import type { Alert, AlertState, PrototypeStatus } from '../domain/alert.js';
import { NotFound } from '../core/errors.js';
import { actuatorView } from '../core/actuator-view.js';
import { prototypeView } from '../domain/prototype.js';
import type { AlertRow, Store } from '../store/index.js';
import { type AlertNews, alertOf } from './alert-json.js';
import { isStuckRun } from '../safety/stuck.js';
import { sensorLevel } from './levels.js';
import { thresholdsOf } from './watched.js';
import { enqueueNotifications } from './outbox.js';

export interface AlertQuery {
  state: AlertState | 'all';
  sensorId?: number;
  prototypeId?: number;
  before?: number;
  limit: number;
}

export interface AlertServiceDeps {
  store: Store;
  bus: ChangeBus;
  now: () => number;
  staleAfterMs: number;
  webhookUrls: readonly string[];
  /** The one dosing decision (safety/decide.ts) of an actuator now; undefined for one gone. */
  decisionOf(actuatorId: number): Promise<Activation | undefined>;
}

const toApi = (row: AlertRow): Alert => alertOf(row, row.prototype_id);

/** The reads of §11 and the one write a user makes: acknowledging. */
export function alertService({ store, bus, now, staleAfterMs, webhookUrls, decisionOf }: AlertServiceDeps) {
  return {
    async list(query: AlertQuery): Promise<Alert[]> {
      const rows = await store.alerts.list({
        state: query.state === 'all' ? undefined : query.state,
        sensorId: query.sensorId,
        prototypeId: query.prototypeId,
        before: query.before,
        limit: query.limit,
      });
      return rows.map(toApi);
    },

    async get(alertId: number): Promise<Alert> {
      const row = await store.alerts.get(alertId);
      if (!row) throw new NotFound(`Alert ${alertId} not found`);
      return toApi(row);
    },

    /**
     * Records who acknowledged the alert (null in open mode) and when. The first acknowledgement
     * is kept: acknowledging again answers the alert as it is and tells nobody. A cleared alert
     * can be acknowledged too (someone saw it after the fact).
     */
    async acknowledge(alertId: number, username: string | null): Promise<Alert> {
      const at = now();
      const result = await store.transaction(async (tx) => {
        const acknowledged = await tx.alerts.acknowledge(alertId, at, username);
        const row = await tx.alerts.get(alertId);
        if (!row) return undefined;
        const news: AlertNews | undefined = acknowledged ? { event: 'acknowledged', alert: toApi(row) } : undefined;
        if (news) await enqueueNotifications(tx.alerts, webhookUrls, [news], at);
        return { alert: toApi(row), news };
      });
      if (!result) throw new NotFound(`Alert ${alertId} not found`);
      if (result.news) bus.publish('alert', result.news);
      return result.alert;
    },

    /** Everything an overview page shows of one prototype, read at one moment. */
    async status(prototypeId: number): Promise<PrototypeStatus> {
      const prototype = await store.prototypes.get(prototypeId);
      if (!prototype) throw new NotFound(`Prototype ${prototypeId} not found`);
      const [sensors, actuators] = await Promise.all([
        store.sensors.listByPrototype(prototypeId),
        store.actuators.listByPrototype(prototypeId),
      ]);
      const [newest, runs, active, interlocks, states] = await Promise.all([
        Promise.all(sensors.map((s) => store.measurements.last(s.sensor_id))),
        Promise.all(sensors.map((s) => (s.stuck_after === null ? null : store.measurements.equalRun(s.sensor_id)))),
        store.alerts.active(sensors.map((s) => s.sensor_id)),
        store.interlocks.ofActuators(actuators.map((a) => a.actuator_id)),
        Promise.all(actuators.map((a) => decisionOf(a.actuator_id))),
      ]);
      const at = now();
      return {
        prototype: prototypeView(prototype, at),
        sensors: sensors.map((sensor, i) => {
          const last = newest[i];
          return {
            sensor,
            level: sensorLevel(last, sensor, at, staleAfterMs, {
              range: thresholdsOf(sensor).range,
              stuck: isStuckRun(runs[i], sensor.stuck_after, at),
            }),
            last_measurement: last ? { ...last, timestamp: new Date(last.timestamp).toISOString() } : null,
            alerts: active.filter((a) => a.sensor_id === sensor.sensor_id).map(toApi),
          };
        }),
        actuators: actuators.flatMap((actuator, i) => {
          const state = states[i];
          // An actuator deleted while this was read is left out.
          return state ? [{ actuator: actuatorView({ ...actuator, interlocks: interlocks.get(actuator.actuator_id) ?? [] }), state }] : [];
        }),
      };
    },
  };
}

export type AlertService = ReturnType<typeof alertService>;
