import type { BrokerLink } from './link.js';
import type { MqttMetrics, PublicationKind } from './metrics.js';

/** Publications on the link, counted by kind; retained topics that could not be emptied are emptied later. */
export function publications(link: Pick<BrokerLink, 'publish'>, metrics: Pick<MqttMetrics, 'published'>) {
  /** Retained topics to empty that could not be emptied while the link was down. */
  const pendingClears = new Set<string>();
  return {
    send(kind: PublicationKind, topic: string, payload: string, qos: 0 | 1, retain: boolean): void {
      if (link.publish(topic, payload, qos, retain)) metrics.published(kind);
    },

    /** Empties a retained topic (a deleted sensor or actuator), now or at the next connection. */
    clear(kind: PublicationKind, topic: string): void {
      if (link.publish(topic, '', 1, true)) metrics.published(kind);
      else pendingClears.add(topic);
    },

    /** Empties the topics left from while the link was down; false when the link dropped meanwhile. */
    clearPending(): boolean {
      for (const topic of [...pendingClears]) {
        if (!link.publish(topic, '', 1, true)) return false;
        pendingClears.delete(topic);
      }
      return true;
    },
  };
}

export type Publications = ReturnType<typeof publications>;
