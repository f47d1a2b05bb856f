import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** An `Environment=` setting of a checkout's systemd unit (deploy/sensorhub.service), '' when unset. */
export function unitSetting(root: string, name: string): string {
  const unit = readFileSync(join(root, 'deploy/sensorhub.service'), 'utf8');
  // `Environment=NAME=value` or, for a value with spaces, `Environment="NAME=value with spaces"`.
  return (new RegExp(`^Environment="?${name}=(.*?)"?$`, 'm').exec(unit)?.[1] ?? '').trim();
}

/** glibc's malloc settings the unit (and `npm start`) give the service. */
export const MALLOC_NAMES = ['MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_', 'MALLOC_TRIM_THRESHOLD_'];

export interface Deployed {
  /** Options for node before the script, from the unit's NODE_OPTIONS. */
  nodeArgs: string[];
  /** The unit's MALLOC_* settings. */
  env: Record<string, string>;
  /** The script and its arguments: `sensorhub serve`. */
  script: string[];
}

/** How a checkout's unit and `npm start` run the service: `node <NODE_OPTIONS> dist/cli/sensorhub.js serve` with MALLOC_*. */
export function asDeployed(root: string): Deployed {
  return {
    nodeArgs: unitSetting(root, 'NODE_OPTIONS').split(/\s+/).filter(Boolean),
    env: Object.fromEntries(MALLOC_NAMES.map((name) => [name, unitSetting(root, name)]).filter(([, value]) => value)),
    script: ['dist/cli/sensorhub.js', 'serve'],
  };
}
