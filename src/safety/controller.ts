/**
 * A controller is offline when it has neither read its actuator's state nor reported a run for
 * `controller_timeout` seconds (docs/api.md §14): the `controller_offline` alert is raised by a
 * timer at exactly that instant and cleared by the next read. The caller checks that the actuator
 * is enabled.
 */
import { firstMillisecondAfter, hasElapsed } from './instants.js';

/**
 * The instant the controller turns offline, counted from its last contact (the later of
 * `last_polled` and `last_activated`), or null: no timeout set (or not a finite number ≥ 0), or
 * no contact time to count from (a stored actuator always has `last_activated`).
 */
export function controllerOfflineAt(
  lastPolled: number | null,
  lastActivated: number | null,
  controllerTimeout: number | null,
): number | null {
  if (controllerTimeout === null || !(controllerTimeout >= 0) || !Number.isFinite(controllerTimeout)) return null;
  const contacts = [lastPolled, lastActivated].filter((t): t is number => typeof t === 'number' && Number.isFinite(t));
  if (contacts.length === 0) return null;
  const lastContact = Math.max(...contacts);
  return firstMillisecondAfter(Number.NEGATIVE_INFINITY, lastContact + controllerTimeout * 1000, (t) =>
    hasElapsed(lastContact, t, controllerTimeout),
  );
}

export function isControllerOffline(
  lastPolled: number | null,
  lastActivated: number | null,
  controllerTimeout: number | null,
  now: number,
): boolean {
  const at = controllerOfflineAt(lastPolled, lastActivated, controllerTimeout);
  return at !== null && now >= at;
}
