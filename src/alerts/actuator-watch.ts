import type { ChangeBus, Changes } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { AlertKind } from '../domain/alert.js';
import { isRelayed } from '../events/postgres-relay.js';
import { isMissingReference, type Repositories, type Store } from '../store/index.js';
import { type ActuatorAlertDeps, clearActuatorAlert, isUniqueViolation, raiseActuatorAlert } from './actuator-alerts.js';
import type { AlertNews } from './alert-json.js';
import { settled } from '../core/settled.js';

export interface ActuatorWatchDeps extends ActuatorAlertDeps {
  store: Pick<Store, 'transaction' | 'alerts'>;
  bus: ChangeBus;
  now: () => number;
  log: Logger;
}

const KINDS: AlertKind[] = ['limit', 'controller_offline'];
const keyOf = (actuatorId: number, kind: AlertKind) => `${actuatorId} ${kind}`;

/** Whether a decision shows a limit holding back a pump that would run now (docs/api.md §14). */
export const limitHolds = (state: Changes['decision']['state']): boolean => state.reason === 'limit' && state.conditionMet === true;

/**
 * The actuator alerts that follow what the bus reports (docs/api.md §14): `limit` (warning) while a
 * limit holds back a pump whose condition holds, from the decisions; `controller_offline`
 * (critical) from the controller changes, for an enabled actuator with a `controller_timeout`.
 * What is active is known here (read at start, followed through the alert events of every
 * instance), so a decision that changes nothing costs nothing; a change is made in a transaction
 * that looks again, so instances deciding the same thing at once raise one alert.
 */
export function actuatorWatch(deps: ActuatorWatchDeps) {
  const { store, bus, now, log } = deps;
  /** The alerts active, or asked to be, by actuator and kind. */
  const on = new Set<string>();
  let chain: Promise<void> = Promise.resolve();
  const unsubscribe: (() => void)[] = [];

  function change(actuatorId: number, kind: AlertKind, raise: boolean, at: number, check?: (tx: Repositories) => Promise<boolean>): void {
    const key = keyOf(actuatorId, kind);
    if (on.has(key) === raise) return;
    if (raise) on.add(key);
    else on.delete(key);
    chain = chain.then(async () => {
      let news: AlertNews | undefined;
      try {
        news = await store.transaction(async (tx) => {
          if (!raise) return clearActuatorAlert(tx, deps, actuatorId, kind, at);
          const actuator = await tx.actuators.get(actuatorId);
          if (!actuator || (check && !(await check(tx)))) return undefined;
          return raiseActuatorAlert(tx, deps, actuator, kind, kind === 'limit' ? 'warning' : 'critical', at);
        });
      } catch (error) {
        // Another instance raised it between our read and insert: the unique index kept it to one.
        if (isUniqueViolation(error)) return;
        on.delete(key);
        // The actuator was deleted between our read and insert: an expected race, nothing to change.
        if (isMissingReference(error)) log.info({ actuatorId, kind }, 'actuator deleted while its alert was changing: nothing to change');
        else log.error({ err: error, actuatorId, kind }, 'changing an actuator alert failed');
        return;
      }
      if (news) bus.publish('alert', news);
      else if (raise && !(await store.alerts.activeOfActuator(actuatorId, kind))) on.delete(key);
    });
  }

  const offlineApplies = async (tx: Repositories, actuatorId: number) => {
    const actuator = await tx.actuators.get(actuatorId);
    return actuator !== undefined && actuator.enabled && actuator.controller_timeout !== null;
  };

  return {
    async start(): Promise<void> {
      unsubscribe.push(
        bus.subscribe('alert', ({ alert }) => {
          if (alert.actuator_id === null || !KINDS.includes(alert.kind)) return;
          if (alert.state === 'active') on.add(keyOf(alert.actuator_id, alert.kind));
          else on.delete(keyOf(alert.actuator_id, alert.kind));
        }),
        bus.subscribe('decision', ({ actuator, state }) => change(actuator.actuator_id, 'limit', limitHolds(state), now())),
        bus.subscribe('controller', ({ actuatorId, offline, at }) =>
          change(actuatorId, 'controller_offline', offline, at, (tx) => offlineApplies(tx, actuatorId)),
        ),
        bus.subscribe('actuator', (c) => {
          if (c.action === 'deleted') {
            for (const kind of KINDS) on.delete(keyOf(c.actuatorId, kind));
            return;
          }
          // A controller that no longer has to answer is not offline.
          const off = !c.actuator.enabled || c.actuator.controller_timeout === null;
          if (off && !isRelayed(c)) change(c.actuator.actuator_id, 'controller_offline', false, now());
        }),
      );
      for (const alert of await store.alerts.activeOfActuators(KINDS)) on.add(keyOf(alert.actuator_id as number, alert.kind));
    },

    /** Resolves once the changes asked for so far are done (tests). */
    idle: (): Promise<void> => settled(() => chain),

    async stop(): Promise<void> {
      for (const stop of unsubscribe.splice(0)) stop();
      await chain;
    },
  };
}

export type ActuatorWatch = ReturnType<typeof actuatorWatch>;
