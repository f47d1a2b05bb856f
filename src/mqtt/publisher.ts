import type { ChangeBus, Changes } from '../core/bus.js';
import { doseView } from '../core/dose-view.js';
import { activationJson } from '../core/json-text.js';
import type { Logger } from '../core/logger.js';
import { isRelayed } from '../events/postgres-relay.js';
import type { Store, StoredActuator } from '../store/index.js';
import type { Decision } from '../safety/index.js';
import type { MqttServices } from './deps.js';
import type { DiscoveryContext } from './discovery.js';
import { knownDevices } from './known-devices.js';
import { lastValues } from './last-values.js';
import type { BrokerLink } from './link.js';
import type { MqttMetrics } from './metrics.js';
import { publications } from './publications.js';
import type { Topics } from './topics.js';

export { LAST_INTERVAL_MS } from './last-values.js';

export interface PublisherDeps {
  link: Pick<BrokerLink, 'publish' | 'connected'>;
  topics: Topics;
  /** Home Assistant discovery, when on. */
  discovery: DiscoveryContext | undefined;
  store: Pick<Store, 'sensors' | 'prototypes' | 'actuators' | 'measurements'>;
  services: Pick<MqttServices, 'actuators' | 'claims'>;
  bus: ChangeBus;
  metrics: MqttMetrics;
  log: Logger;
}

/**
 * Committed changes heard on the bus, published for devices, controllers and Home Assistant:
 * each sensor's newest measurement (retained), each actuator's decision whenever the decision
 * watcher announces it (retained, QoS 1), alert events, each dose, and the discovery configs. While the link
 * is down nothing is queued: at every (re)connection the current picture is published afresh.
 */
export function mqttPublisher({ link, topics, discovery, store, services, bus, metrics, log }: PublisherDeps) {
  const out = publications(link, metrics);
  const last = lastValues({ out, topics, store });
  const devices = knownDevices({ out, topics, discovery, last });
  const unsubscribe: (() => void)[] = [];
  const failed = (what: string) => (error: unknown) => log.warn({ err: error }, `MQTT: ${what} failed`);
  const reread = (sensorId: number) => last.reread(sensorId).catch(failed('reading the newest measurement'));

  /**
   * Publishes an actuator's decision on its state topic. For an `http` actuator it describes the
   * decision (`activate`: it would run now) and claims nothing: its controller polls. For an
   * `mqtt` actuator the topic is what its controller acts on, so `activate: true` goes out only
   * for a claim committed for it, and `claimed` right after (claims/).
   */
  function publishState(actuator: Pick<StoredActuator, 'actuator_id' | 'controller'>, state: Changes['decision']['state']): void {
    const topic = topics.state(actuator.actuator_id);
    if (actuator.controller !== 'mqtt') return out.send('state', topic, activationJson(state), 1, true);
    void Promise.resolve(services.claims.settle(actuator.actuator_id, { decision: state as Decision, json: activationJson(state) }))
      .then((answer) => {
        if (answer) out.send('state', topic, answer.json, 1, true);
      })
      .catch(failed('claiming a dose for an MQTT controller'));
  }

  return {
    start(): void {
      unsubscribe.push(
        bus.subscribe('measurements', ({ rows }) => {
          for (const row of rows) last.offer(row);
        }),
        bus.subscribe('measurementDeleted', ({ measurement }) => {
          if (last.newestOf(measurement.sensor_id)?.measurement_id === measurement.measurement_id) reread(measurement.sensor_id);
        }),
        bus.subscribe('generated', ({ sensorIds }) => {
          for (const id of sensorIds) reread(id);
        }),
        bus.subscribe('decision', ({ actuator, state }) => publishState(actuator, state)),
        // Each alert event and each dose once across instances: by the instance that committed it, not by those it was relayed to.
        bus.subscribe('alert', (change) => {
          if (!isRelayed(change)) out.send('alert', topics.alerts, JSON.stringify(change), 1, false);
        }),
        bus.subscribe('dose', (change) => {
          if (!isRelayed(change)) out.send('dose', topics.doses(change.dose.actuator_id), JSON.stringify(doseView(change.dose)), 1, false);
        }),
        bus.subscribe('sensor', (change) =>
          change.action === 'deleted' ? devices.forgetSensor(change.sensorId) : devices.sensorChanged(change.sensor),
        ),
        bus.subscribe('actuator', (change) =>
          change.action === 'deleted'
            ? devices.forgetActuator(change.actuatorId)
            : devices.actuator(change.actuator, change.action === 'activated'),
        ),
        bus.subscribe('prototype', (change) => {
          if (change.action === 'deleted') devices.forgetPrototype(change.prototypeId);
          else if (change.action === 'updated') devices.prototypeRenamed(change.prototype);
          else devices.prototype(change.prototype);
        }),
      );
    },

    /** Everything a subscriber should find on the broker, published at every (re)connection. */
    async snapshot(): Promise<void> {
      if (!out.clearPending()) return;
      const [allPrototypes, allSensors, allActuators] = await Promise.all([
        store.prototypes.list(),
        store.sensors.list(),
        store.actuators.all(),
      ]);
      for (const prototype of allPrototypes) devices.prototype(prototype);
      for (const sensor of allSensors) {
        devices.sensor(sensor);
        last.republish(sensor.sensor_id, await store.measurements.last(sensor.sensor_id));
      }
      for (const actuator of allActuators) {
        devices.actuator(actuator);
        const state = await services.actuators.decision(actuator.actuator_id).catch(() => undefined);
        if (state) publishState(actuator, state);
      }
    },

    stop(): void {
      for (const stop of unsubscribe) stop();
    },
  };
}
