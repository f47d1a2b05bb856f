import type { ChangeBus } from '../events/bus.js';
import { isRelayed } from '../events/postgres-relay.js';
import { activationJson, measurementJson } from '../http/json-text.js';
import type { Prototype } from '../schemas/prototypes.js';
import type { Sensor } from '../schemas/sensors.js';
import type { Services } from '../services/index.js';
import type { Store, StoredActuator, StoredMeasurement } from '../store/index.js';
import { actuatorConfig, actuatorConfigTopic, type DiscoveryContext, sensorConfig, sensorConfigTopic } from './discovery.js';
import type { BrokerLink } from './link.js';
import type { MqttMetrics, PublicationKind } from './metrics.js';
import type { Topics } from './topics.js';

export interface PublisherDeps {
  link: Pick<BrokerLink, 'publish' | 'connected'>;
  topics: Topics;
  /** Home Assistant discovery, when on. */
  discovery: DiscoveryContext | undefined;
  store: Pick<Store, 'sensors' | 'prototypes' | 'actuators' | 'measurements'>;
  services: Pick<Services, 'actuators'>;
  bus: ChangeBus;
  metrics: MqttMetrics;
  log: { warn(details: object, message: string): void };
}

/**
 * The newest values are published at most this often (all sensors that changed meanwhile
 * together): a sensor written thousands of times a second is not republished as often, one
 * written every few seconds is published at once.
 */
export const LAST_INTERVAL_MS = 50;

/** Ties in timestamp go to the higher id, as the newest measurement is chosen everywhere else. */
const isNewer = (row: StoredMeasurement, than: StoredMeasurement | undefined) =>
  !than || row.timestamp > than.timestamp || (row.timestamp === than.timestamp && row.measurement_id > than.measurement_id);

/**
 * Committed changes heard on the bus, published for devices, controllers and Home Assistant:
 * each sensor's newest measurement (retained), each actuator's decision whenever the decision
 * watcher announces it (retained, QoS 1), alert events, and the discovery configs. While the link
 * is down nothing is queued: at every (re)connection the current picture is published afresh.
 */
export function mqttPublisher(deps: PublisherDeps) {
  const { link, topics, discovery, store, services, bus, metrics, log } = deps;
  const sensors = new Map<number, Sensor>();
  const actuators = new Map<number, StoredActuator>();
  const prototypes = new Map<number, Prototype>();
  /** The newest measurement published per sensor. */
  const newest = new Map<number, StoredMeasurement>();
  /** Newest measurements waiting to be published: a burst publishes each sensor once. */
  const pendingLast = new Map<number, StoredMeasurement>();
  let flushScheduled = false;
  let lastFlushAt = -Infinity;
  /** Retained topics to empty that could not be emptied while the link was down. */
  const pendingClears = new Set<string>();
  const unsubscribe: (() => void)[] = [];

  function send(kind: PublicationKind, topic: string, payload: string, qos: 0 | 1, retain: boolean): void {
    if (link.publish(topic, payload, qos, retain)) metrics.published(kind);
  }

  /** Empties a retained topic (a deleted sensor or actuator), now or at the next connection. */
  function clear(kind: PublicationKind, topic: string): void {
    if (link.publish(topic, '', 1, true)) metrics.published(kind);
    else pendingClears.add(topic);
  }

  function flushLast(): void {
    flushScheduled = false;
    lastFlushAt = performance.now();
    for (const row of pendingLast.values()) send('last', topics.last(row.sensor_id), measurementJson(row), 0, true);
    pendingLast.clear();
  }

  function offerLast(row: StoredMeasurement): void {
    if (!isNewer(row, newest.get(row.sensor_id))) return;
    newest.set(row.sensor_id, row);
    pendingLast.set(row.sensor_id, row);
    if (flushScheduled) return;
    flushScheduled = true;
    const wait = lastFlushAt + LAST_INTERVAL_MS - performance.now();
    if (wait > 0) setTimeout(flushLast, wait);
    else setImmediate(flushLast);
  }

  /** After a delete or a bulk replacement the newest measurement is read again. */
  async function rereadLast(sensorId: number): Promise<void> {
    const row = await store.measurements.last(sensorId);
    newest.delete(sensorId);
    pendingLast.delete(sensorId);
    if (row) offerLast(row);
    else clear('last', topics.last(sensorId));
  }

  function publishSensorConfig(sensor: Sensor): void {
    if (!discovery) return;
    const { topic, payload } = sensorConfig(discovery, sensor, prototypes.get(sensor.prototype_id));
    send('discovery', topic, payload, 1, true);
  }

  function publishActuatorConfig(actuator: StoredActuator): void {
    const sensor = sensors.get(actuator.sensor_id);
    if (!discovery || !sensor) return;
    const { topic, payload } = actuatorConfig(discovery, actuator, sensor.prototype_id, prototypes.get(sensor.prototype_id));
    send('discovery', topic, payload, 1, true);
  }

  function forgetActuator(actuatorId: number): void {
    actuators.delete(actuatorId);
    clear('state', topics.state(actuatorId));
    if (discovery) clear('discovery', actuatorConfigTopic(discovery, actuatorId));
  }

  function forgetSensor(sensorId: number): void {
    sensors.delete(sensorId);
    newest.delete(sensorId);
    pendingLast.delete(sensorId);
    clear('last', topics.last(sensorId));
    if (discovery) clear('discovery', sensorConfigTopic(discovery, sensorId));
    // Its actuators went with it.
    for (const actuator of [...actuators.values()]) if (actuator.sensor_id === sensorId) forgetActuator(actuator.actuator_id);
  }

  const failed = (what: string) => (error: unknown) => log.warn({ err: error }, `MQTT: ${what} failed`);

  return {
    start(): void {
      unsubscribe.push(
        bus.subscribe('measurements', ({ rows }) => {
          for (const row of rows) offerLast(row);
        }),
        bus.subscribe('measurementDeleted', ({ measurement }) => {
          if (newest.get(measurement.sensor_id)?.measurement_id === measurement.measurement_id) {
            rereadLast(measurement.sensor_id).catch(failed('reading the newest measurement'));
          }
        }),
        bus.subscribe('generated', ({ sensorIds }) => {
          for (const id of sensorIds) rereadLast(id).catch(failed('reading the newest measurement'));
        }),
        bus.subscribe('decision', ({ actuator, state }) => {
          send('state', topics.state(actuator.actuator_id), activationJson(state), 1, true);
        }),
        // Each alert event once across instances: by the instance that committed it, not by those it was relayed to.
        bus.subscribe('alert', (change) => {
          if (!isRelayed(change)) send('alert', topics.alerts, JSON.stringify(change), 1, false);
        }),
        bus.subscribe('sensor', (change) => {
          if (change.action === 'deleted') return forgetSensor(change.sensorId);
          sensors.set(change.sensor.sensor_id, change.sensor);
          publishSensorConfig(change.sensor);
          // A sensor moved to another prototype moves its actuators' device too.
          for (const actuator of actuators.values()) if (actuator.sensor_id === change.sensor.sensor_id) publishActuatorConfig(actuator);
        }),
        bus.subscribe('actuator', (change) => {
          if (change.action === 'deleted') return forgetActuator(change.actuatorId);
          const before = actuators.get(change.actuator.actuator_id);
          actuators.set(change.actuator.actuator_id, change.actuator);
          // A run changes nothing Home Assistant shows of the actuator itself (its decision follows on `decision`).
          if (change.action !== 'activated' || !before) publishActuatorConfig(change.actuator);
        }),
        bus.subscribe('prototype', (change) => {
          if (change.action === 'deleted') return void prototypes.delete(change.prototypeId);
          prototypes.set(change.prototype.prototype_id, change.prototype);
          if (change.action !== 'updated') return;
          // Renamed: the Home Assistant device of its sensors and actuators carries the name.
          for (const sensor of sensors.values()) {
            if (sensor.prototype_id !== change.prototype.prototype_id) continue;
            publishSensorConfig(sensor);
            for (const actuator of actuators.values()) if (actuator.sensor_id === sensor.sensor_id) publishActuatorConfig(actuator);
          }
        }),
      );
    },

    /** Everything a subscriber should find on the broker, published at every (re)connection. */
    async snapshot(): Promise<void> {
      for (const topic of [...pendingClears]) {
        if (!link.publish(topic, '', 1, true)) return;
        pendingClears.delete(topic);
      }
      const [allPrototypes, allSensors, allActuators] = await Promise.all([
        store.prototypes.list(),
        store.sensors.list(),
        store.actuators.all(),
      ]);
      for (const prototype of allPrototypes) prototypes.set(prototype.prototype_id, prototype);
      for (const sensor of allSensors) {
        sensors.set(sensor.sensor_id, sensor);
        publishSensorConfig(sensor);
        const read = await store.measurements.last(sensor.sensor_id);
        const known = newest.get(sensor.sensor_id);
        const row = read && isNewer(read, known) ? read : known;
        if (!row) continue;
        newest.set(sensor.sensor_id, row);
        send('last', topics.last(sensor.sensor_id), measurementJson(row), 0, true);
      }
      for (const actuator of allActuators) {
        actuators.set(actuator.actuator_id, actuator);
        publishActuatorConfig(actuator);
        const state = await services.actuators.state(actuator.actuator_id).catch(() => undefined);
        if (state) send('state', topics.state(actuator.actuator_id), activationJson(state), 1, true);
      }
    },

    stop(): void {
      for (const stop of unsubscribe) stop();
    },
  };
}
