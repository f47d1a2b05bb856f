import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import { isRelayed } from '../events/postgres-relay.js';
import { isStockLow } from '../safety/index.js';
import { isMissingReference, type Store, type StoredActuator } from '../store/index.js';
import { type ActuatorAlertDeps, clearActuatorAlert, isUniqueViolation, raiseActuatorAlert } from './actuator-alerts.js';
import type { AlertNews } from './alert-json.js';
import { settled } from '../core/settled.js';

export interface StockWatchDeps extends ActuatorAlertDeps {
  store: Pick<Store, 'transaction' | 'alerts' | 'actuators'>;
  bus: ChangeBus;
  now: () => number;
  log: Logger;
}

const stockLow = (actuator: Pick<StoredActuator, 'stock_ml' | 'stock_low_ml'>) => isStockLow(actuator.stock_ml, actuator.stock_low_ml);

/**
 * The `stock_low` alert (docs/api.md §15, a warning): active while an actuator's bottle holds
 * `stock_low_ml` or less, whatever brought it there — a dose, a patch of the stock or of the
 * mark, a refill that was not enough; cleared once it holds more (a refill, usually), or when
 * stock is no longer tracked or the mark is removed. Its `value` is the stock when it was raised.
 *
 * The instance that committed an actuator change brings the alert in line with the row as it is
 * in a transaction of its own, so a dose and a refill committed through two instances at once
 * leave the alert as the last of them says; the unique index keeps it to one active alert. What
 * is active is known here (read at start, followed through the alert events of every instance),
 * so a dose that changes nothing costs nothing; a refill is always looked at, as its instance
 * may not have heard yet of an alert another one raised a moment before.
 */
export function stockWatch(deps: StockWatchDeps) {
  const { store, bus, now, log } = deps;
  /** The actuators with an active stock_low alert, as known here. */
  const active = new Set<number>();
  let chain: Promise<void> = Promise.resolve();
  const unsubscribe: (() => void)[] = [];

  function align(actuatorId: number): void {
    chain = chain.then(async () => {
      let news: AlertNews | undefined;
      try {
        news = await store.transaction(async (tx) => {
          const actuator = await tx.actuators.get(actuatorId);
          if (actuator && stockLow(actuator)) {
            return raiseActuatorAlert(tx, deps, actuator, 'stock_low', 'warning', now(), actuator.stock_ml);
          }
          return clearActuatorAlert(tx, deps, actuatorId, 'stock_low', now());
        });
      } catch (error) {
        // Another instance raised it between our read and insert: the unique index kept it to one.
        // The actuator deleted between our read and insert is an expected race too: nothing to change.
        if (isMissingReference(error))
          log.info({ actuatorId }, 'actuator deleted while its stock_low alert was changing: nothing to change');
        else if (!isUniqueViolation(error)) log.error({ err: error, actuatorId }, 'changing the stock_low alert of an actuator failed');
        return;
      }
      if (news) bus.publish('alert', news);
    });
  }

  return {
    async start(): Promise<void> {
      unsubscribe.push(
        bus.subscribe('alert', ({ alert }) => {
          if (alert.actuator_id === null || alert.kind !== 'stock_low') return;
          if (alert.state === 'active') active.add(alert.actuator_id);
          else active.delete(alert.actuator_id);
        }),
        bus.subscribe('actuator', (change) => {
          if (change.action === 'deleted') return void active.delete(change.actuatorId);
          if (isRelayed(change)) return;
          const id = change.actuator.actuator_id;
          if (change.refill !== undefined || stockLow(change.actuator) !== active.has(id)) align(id);
        }),
      );
      for (const alert of await store.alerts.activeOfActuators(['stock_low'])) active.add(alert.actuator_id as number);
      // A stock that went low while no instance was there to raise the alert (a stop right after the commit).
      for (const actuator of await store.actuators.all())
        if (stockLow(actuator) && !active.has(actuator.actuator_id)) align(actuator.actuator_id);
    },

    /** Resolves once the changes asked for so far are done (tests). */
    idle: (): Promise<void> => settled(() => chain),

    async stop(): Promise<void> {
      for (const stop of unsubscribe.splice(0)) stop();
      await chain;
    },
  };
}

export type StockWatch = ReturnType<typeof stockWatch>;
