import { setFlagsFromString } from 'node:v8';
import { collectWhenIdle } from './idle-collection.js';

/**
 * V8 tuned for memory before speed, as `sensorhub serve` runs: set before the service's modules
 * load, since most of what it saves (about 5 MB of a board's resident memory) is taken while they
 * are compiled; and the heap a busy stretch grew given back once the service is quiet
 * (idle-collection.ts). At device rates it costs no measurable CPU (BENCHMARKS.md, "Footprint");
 * `node dist/server.js` keeps V8's defaults for a machine that wants every bit of ingest speed.
 */
export function tuneForSmallBoard(): void {
  setFlagsFromString('--optimize-for-size');
  collectWhenIdle();
}
