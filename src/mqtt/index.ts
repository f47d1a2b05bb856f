import type { Registry } from 'prom-client';
import type { Config } from '../config/index.js';
import type { ChangeBus } from '../core/bus.js';
import type { App } from '../http/app-type.js';
import type { Store } from '../store/index.js';
import type { MqttBridge } from './bridge.js';
import type { MqttServices } from './deps.js';

export type { MqttBridge } from './bridge.js';
export { INGEST_LINKS, SHARE_GROUP } from './sharing.js';

export interface MqttDeps {
  config: Pick<Config, 'mqtt'>;
  store: Store;
  services: MqttServices;
  bus: ChangeBus;
  now: () => number;
  metrics: { registry: Registry };
}

/**
 * The MQTT bridge, when `MQTT_URL` is set: it connects once the app is ready (the HTTP side never
 * waits for the broker) and disconnects before the store closes, after the message in hand. The
 * MQTT client is imported only then: without `MQTT_URL` it is never loaded.
 */
export async function register(app: App, { config, store, services, bus, now, metrics }: MqttDeps): Promise<MqttBridge | undefined> {
  if (!config.mqtt) return undefined;
  const { mqttBridge } = await import('./bridge.js');
  const log = app.log.child({ component: 'mqtt' });
  const bridge = mqttBridge({ settings: config.mqtt, store, services, bus, now, log, registry: metrics.registry });
  app.addHook('onReady', async () => bridge.start());
  app.addHook('preClose', async () => bridge.close());
  return bridge;
}
