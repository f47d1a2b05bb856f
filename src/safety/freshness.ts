/**
 * Whether a sensor's newest reading is recent enough to act on (docs/api.md §14): it is *stale*
 * when strictly older than the sensor's `stale_after` seconds (or the service's STALE_AFTER), so a
 * reading exactly that old is still fresh; one from the future (a device clock ahead) is fresh. It
 * is *restarted* when it was received before this process started: after a restart a pump waits
 * for a reading that arrived since.
 */
import { firstMillisecondAfter } from './instants.js';
import type { SensorReading, SensorSafetySettings } from './inputs.js';

type Staleness = Pick<SensorSafetySettings, 'stale_after'>;

export function isStale(settings: Staleness, timestamp: number, at: number, staleAfterDefaultMs: number): boolean {
  const ageMs = at - timestamp;
  return settings.stale_after === null ? !(ageMs <= staleAfterDefaultMs) : !(ageMs / 1000 <= settings.stale_after);
}

/** The first instant after `now` at which the reading turns stale, or null when it already is (or never will). */
export function staleAt(settings: Staleness, timestamp: number, now: number, staleAfterDefaultMs: number): number | null {
  const stale = (t: number) => isStale(settings, timestamp, t, staleAfterDefaultMs);
  if (stale(now)) return null;
  const limitMs = settings.stale_after === null ? staleAfterDefaultMs : settings.stale_after * 1000;
  return firstMillisecondAfter(now, timestamp + limitMs, stale);
}

/** Received strictly before the process started (or when either time is missing). */
export const receivedBeforeStart = (reading: Pick<SensorReading, 'received_at'>, processStartedAt: number): boolean =>
  !(reading.received_at >= processStartedAt);
