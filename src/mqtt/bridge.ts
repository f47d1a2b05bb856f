import type { IPublishPacket } from 'mqtt';
import type { Registry } from 'prom-client';
import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { Store } from '../store/index.js';
import type { MqttServices } from './deps.js';
import { mqttIngest } from './ingest.js';
import { type BrokerLink, brokerLink, type LinkState } from './link.js';
import { mqttMetrics, type RefusalKind } from './metrics.js';
import { excerpt } from './payload.js';
import { mqttPublisher } from './publisher.js';
import type { MqttSettings } from '../config/mqtt.js';
import { topicsOf } from './topics.js';
import { INGEST_LINKS, SHARE_GROUP } from './sharing.js';

export { INGEST_LINKS, SHARE_GROUP } from './sharing.js';

export interface MqttBridgeDeps {
  settings: MqttSettings;
  store: Store;
  services: MqttServices;
  bus: ChangeBus;
  now: () => number;
  /** The bridge's own logger (its lines carry `component: mqtt`). */
  log: Logger;
  registry: Registry;
}

/**
 * The MQTT bridge (§12): the link to the broker, the shared subscriptions whose messages go into
 * the services, and the publications of what the bus reports. `start` connects (in the
 * background: HTTP serves whatever the broker does); `close` lets the message in hand finish.
 */
export function mqttBridge({ settings, store, services, bus, now, log, registry }: MqttBridgeDeps) {
  const topics = topicsOf(settings.prefix);
  /** The first link also publishes; every link takes messages. */
  let links: BrokerLink[] = [];
  /** Which links have their subscriptions in place for their current connection. */
  const subscribed = new Set<BrokerLink>();
  const metrics = mqttMetrics(registry, () => links.length > 0 && links.every((l) => l.connected()));

  function refuse(topic: string, payload: Buffer, reason: string, kind: RefusalKind): void {
    metrics.refused(kind);
    const report = { topic, payload: excerpt(payload), reason, at: new Date(now()).toISOString() };
    log.warn({ topic, reason, payload: report.payload }, 'MQTT message refused');
    if (links[0]?.publish(topics.errors, JSON.stringify(report), 0, false)) metrics.published('error');
  }

  const ingest = mqttIngest({ prefix: settings.prefix, services, store, metrics, refuse, log });
  const linkProxy = {
    publish: (...args: Parameters<BrokerLink['publish']>) => links[0]?.publish(...args) ?? false,
    connected: () => links[0]?.connected() ?? false,
  };
  const publisher = mqttPublisher({
    link: linkProxy,
    topics,
    discovery: settings.haDiscovery ? { discoveryPrefix: settings.discoveryPrefix, prefix: settings.prefix, topics } : undefined,
    store,
    services,
    bus,
    metrics,
    log,
  });

  return {
    /** The state of the link that is furthest from working; `connected` once every link is subscribed. */
    state(): LinkState {
      if (links.length === 0) return 'connecting';
      const states = links.map((l) => (l.state() === 'connected' && !subscribed.has(l) ? 'connecting' : l.state()));
      return states.includes('disconnected') ? 'disconnected' : states.includes('connecting') ? 'connecting' : 'connected';
    },

    start(): void {
      publisher.start();
      links = Array.from({ length: INGEST_LINKS }, (_, index) => {
        const link: BrokerLink = brokerLink({
          settings: { ...settings, clientId: index === 0 ? settings.clientId : `${settings.clientId}-${index}` },
          log,
          receive: (topic: string, payload: Buffer, packet: IPublishPacket) => ingest.receive(topic, payload, packet),
          connected: () => {
            subscribed.delete(link);
            link
              .subscribe([`$share/${SHARE_GROUP}/${topics.measurementsFilter}`, `$share/${SHARE_GROUP}/${topics.activatedFilter}`])
              .then(() => {
                subscribed.add(link);
                // The first link publishes what subscribers should find.
                if (index === 0) return publisher.snapshot();
              })
              .catch((error: unknown) => log.warn({ err: error }, 'MQTT subscribe or snapshot failed'));
          },
          reconnected: () => metrics.reconnected(),
        });
        return link;
      });
    },

    async close(): Promise<void> {
      publisher.stop();
      ingest.stop();
      await Promise.all(links.map((l) => l.close()));
    },
  };
}

export type MqttBridge = ReturnType<typeof mqttBridge>;
