import { Counter, Gauge, type Registry } from 'prom-client';

/** Why a received message was refused (acknowledged and not stored). */
export type RefusalKind = 'topic' | 'payload' | 'retained' | 'validation' | 'unknown' | 'internal';
/** What the service published. */
export type PublicationKind = 'last' | 'state' | 'alert' | 'dose' | 'error' | 'discovery';

/** The bridge's counters, in the app's registry beside the HTTP metrics. */
export function mqttMetrics(registry: Registry, connected: () => boolean) {
  const received = new Counter({
    name: 'sensorhub_mqtt_messages_received_total',
    help: 'MQTT messages received on the subscribed topics (measurements and activations).',
    registers: [registry],
  });
  const stored = new Counter({
    name: 'sensorhub_mqtt_messages_stored_total',
    help: 'MQTT messages whose measurements (or activation) were committed, then acknowledged.',
    registers: [registry],
  });
  const duplicates = new Counter({
    name: 'sensorhub_mqtt_messages_duplicate_total',
    help: 'Redelivered MQTT messages found already stored: acknowledged without storing them again.',
    registers: [registry],
  });
  const refused = new Counter({
    name: 'sensorhub_mqtt_messages_refused_total',
    help: 'MQTT messages refused (acknowledged, not stored, reported on <prefix>/errors), by reason.',
    labelNames: ['reason'],
    registers: [registry],
  });
  const published = new Counter({
    name: 'sensorhub_mqtt_messages_published_total',
    help: 'MQTT messages published by the service, by kind.',
    labelNames: ['kind'],
    registers: [registry],
  });
  const reconnects = new Counter({
    name: 'sensorhub_mqtt_reconnects_total',
    help: 'Connections to the MQTT broker made again after the link was lost.',
    registers: [registry],
  });
  new Gauge({
    name: 'sensorhub_mqtt_connected',
    help: 'Whether the link to the MQTT broker is up (1) or not (0).',
    registers: [registry],
    collect() {
      this.set(connected() ? 1 : 0);
    },
  });
  return {
    received: () => received.inc(),
    stored: () => stored.inc(),
    duplicate: () => duplicates.inc(),
    refused: (reason: RefusalKind) => refused.labels(reason).inc(),
    published: (kind: PublicationKind) => published.labels(kind).inc(),
    reconnected: () => reconnects.inc(),
  };
}

export type MqttMetrics = ReturnType<typeof mqttMetrics>;
