import type { ChangeBus } from '../events/bus.js';
import type { Store } from '../store/index.js';

/** Where a service reports what it recovered from (pino's signature, so the app's logger fits). */
export interface WarningLog {
  warn(details: object, message: string): void;
}

/** What every service is given: the store, the bus its committed changes go to, and the clock. */
export interface ServiceDeps {
  store: Store;
  bus: ChangeBus;
  now: () => number;
  log: WarningLog;
}
