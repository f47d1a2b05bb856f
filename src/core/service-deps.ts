import type { ChangeBus } from './bus.js';
import type { Logger } from './logger.js';
import type { Store } from '../store/index.js';

/** What every service is given: the store, the bus its committed changes go to, and the clock. */
export interface ServiceDeps {
  store: Store;
  bus: ChangeBus;
  now: () => number;
  log: Logger;
}
