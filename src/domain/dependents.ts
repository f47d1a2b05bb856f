// The dashboard bundles this module (web/src/domain/dependents.ts): it imports only grouped.ts,
// which imports nothing, so nothing of the server follows it into the page.
import { grouped } from './grouped.js';

/** What still hangs below a sensor or a prototype, counted before it is deleted (`notes`: a prototype's journal). */
export interface Dependents {
  sensors?: number;
  actuators: number;
  measurements: number;
  notes?: number;
}

/**
 * `3 sensors, 2 actuators and 1,204 measurements`, `5 measurements`: what a refused delete tells
 * the client, naming only what is there (a count of 0 says nothing a reader needs).
 */
export function describeDependents(d: Dependents): string {
  const plural = (n: number, word: string) => `${grouped(n)} ${word}${n === 1 ? '' : 's'}`;
  const counts: [number, string][] = [
    [d.sensors ?? 0, 'sensor'],
    [d.actuators, 'actuator'],
    [d.measurements, 'measurement'],
    [d.notes ?? 0, 'note'],
  ];
  const parts = counts.filter(([n]) => n > 0).map(([n, word]) => plural(n, word));
  if (parts.length === 0) return 'nothing else';
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}
