import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { Config } from '../config.js';
import type { ChangeBus } from '../events/bus.js';
import type { Services } from '../services/index.js';
import type { Store } from '../store/index.js';
import { mqttBridge, type MqttBridge } from './index.js';

export interface MqttAppDeps {
  config: Pick<Config, 'mqtt'>;
  store: Store;
  services: Services;
  bus: ChangeBus;
  now: () => number;
  registry: Registry;
}

/**
 * The MQTT bridge, when `MQTT_URL` is set: it connects once the app is ready (the HTTP side never
 * waits for the broker) and disconnects before the store closes, after the message in hand.
 */
export function registerMqtt(app: FastifyInstance, { config, ...deps }: MqttAppDeps): MqttBridge | undefined {
  if (!config.mqtt) return undefined;
  const bridge = mqttBridge({ settings: config.mqtt, log: app.log, ...deps });
  app.addHook('onReady', async () => bridge.start());
  app.addHook('preClose', async () => bridge.close());
  return bridge;
}
