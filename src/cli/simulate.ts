/**
 * `sensorhub simulate …` (`npm run simulate -- …`): the tank simulator (src/simulator/cli.ts). This
 * entry sits above the capabilities so that it can hand the simulator the service's own buildApp
 * for the fast runs. Ctrl-C (or SIGTERM) ends a live run.
 */
import { buildApp } from '../app.js';
import { main as simulate } from '../simulator/cli.js';
import { isEntry, runAsEntry } from './entry.js';

export function main(argv: string[]): Promise<number> {
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  return simulate(argv, { buildApp, signal: stop.signal });
}

if (isEntry(import.meta.url)) runAsEntry(main);
