import type { Activation } from '../domain/activation.js';
import type { StoredMeasurement } from '../store/index.js';

/** ISO text of a timestamp; consecutive rows often share one (a batch stamped at receipt), so the last is kept. */
let lastMs = Number.NaN;
let lastIso = '';
export function isoOf(ms: number): string {
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/** A measurement as JSON text, the same as the response schema writes it (values are always finite). */
export const measurementJson = (m: StoredMeasurement) =>
  `{"measurement_id":${m.measurement_id},"sensor_id":${m.sensor_id},"value":${m.value},"timestamp":"${isoOf(m.timestamp)}"}`;

/** An activation decision as JSON text, the same as the response schema writes it. */
export const activationJson = (a: Activation) =>
  `{"activate":${a.activate},"status":${JSON.stringify(a.status)},"duration":${a.duration},"period":${a.period}}`;
