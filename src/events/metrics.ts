import { Counter, Gauge, type Registry } from 'prom-client';
import type { StreamRegistry } from './streams.js';

/** The live event streams' gauges (open, the bound) and refusals, read from the streams when scraped. */
export function eventStreamMetrics(registry: Registry, streams: Pick<StreamRegistry, 'count' | 'maxStreams' | 'refused'>): void {
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge('sensorhub_event_streams_open', 'Live event streams (GET /events) open on this instance.', () => streams.count);
  gauge('sensorhub_event_streams_max', 'The most live event streams open at once (EVENTS_MAX_STREAMS).', () => streams.maxStreams);
  new Counter({
    name: 'sensorhub_event_streams_refused_total',
    help: 'New live event streams refused with 503 for EVENTS_MAX_STREAMS or EVENTS_MAX_STREAMS_PER_CLIENT.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(streams.refused);
    },
  });
}
