import { randomBytes } from 'node:crypto';
import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { INGEST_LINKS } from '../../src/mqtt/index.js';

export const BROKER_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** A prefix of the test's own, so runs never see each other's retained messages. */
export function uniquePrefix(): string {
  return `sensorhub-test-${randomBytes(5).toString('hex')}`;
}

/** The service's MQTT settings for one test: its topics, discovery prefix and session all its own. */
export function mqttEnv(prefix: string, brokerUrl = BROKER_URL, clientSuffix = ''): Record<string, string> {
  return {
    MQTT_URL: brokerUrl,
    MQTT_TOPIC_PREFIX: prefix,
    MQTT_CLIENT_ID: `${prefix}-service${clientSuffix}`,
    MQTT_HA_DISCOVERY_PREFIX: `${prefix}-ha`,
  };
}

/** The client ids of the service's connections (their persistent sessions), as `mqttEnv` names them. */
export function serviceClientIds(prefix: string, clientSuffix = ''): string[] {
  const base = `${prefix}-service${clientSuffix}`;
  return Array.from({ length: INGEST_LINKS }, (_, i) => (i === 0 ? base : `${base}-${i}`));
}

export interface Received {
  topic: string;
  text: string;
  retain: boolean;
}

/** A device or controller on the broker: publishes, and keeps what its subscriptions received. */
export interface TestClient {
  client: MqttClient;
  received: Received[];
  subscribe(filter: string): Promise<void>;
  publish(topic: string, payload: string | Buffer, qos?: 0 | 1, retain?: boolean): Promise<void>;
  /** Waits until a received message matches (failing after `timeoutMs`), and returns it. */
  waitFor(match: (m: Received) => boolean, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
}

export async function testClient(brokerUrl = BROKER_URL, options: IClientOptions = {}): Promise<TestClient> {
  const client = await connectAsync(brokerUrl, {
    protocolVersion: 5,
    reconnectPeriod: 0,
    clientId: `t-${randomBytes(6).toString('hex')}`,
    ...options,
  });
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  client.on('message', (topic, payload, packet) => {
    received.push({ topic, text: payload.toString('utf8'), retain: packet.retain });
    for (const wake of waiters) wake();
  });
  return {
    client,
    received,
    async subscribe(filter) {
      await client.subscribeAsync(filter, { qos: 1 });
    },
    async publish(topic, payload, qos = 1, retain = false) {
      await client.publishAsync(topic, payload, { qos, retain });
    },
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(match);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching MQTT message within ${timeoutMs} ms; received: ${JSON.stringify(received.slice(-10))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      await client.endAsync();
    },
  };
}

export { eventually } from './eventually.js';

/**
 * Leaves the broker as the test found it: the retained messages under the test's prefixes are
 * emptied and the service's persistent sessions removed.
 */
export async function cleanBroker(prefix: string, clientIds: string[], brokerUrl = BROKER_URL): Promise<void> {
  const sweeper = await testClient(brokerUrl);
  await sweeper.subscribe(`${prefix}/#`);
  await sweeper.subscribe(`${prefix}-ha/#`);
  // Retained messages arrive right after the subscription; a round trip to the broker lets them in.
  await sweeper.publish(`${prefix}/sweep`, 'x');
  await sweeper.waitFor((m) => m.topic === `${prefix}/sweep`);
  for (const m of sweeper.received.filter((r) => r.retain && r.text !== '')) await sweeper.publish(m.topic, '', 1, true);
  await sweeper.close();
  for (const clientId of clientIds) {
    const session = await connectAsync(brokerUrl, {
      protocolVersion: 5,
      clientId,
      clean: true,
      reconnectPeriod: 0,
      properties: { sessionExpiryInterval: 0 },
    });
    await session.endAsync();
  }
}
