import type { Logger } from '../core/logger.js';

/** Who made a change: the user behind the token, or nobody known (AUTH_MODE=open, the first administrator). */
export type Actor = string | null;

/**
 * One `audit` line in the structured log per change of users, tokens or sessions (docs/api.md §6.1):
 * who, what, on what, when. Callers pass names and ids only: never a password, hash or token.
 */
export function audit(log: Logger, now: () => number, actor: Actor, action: string, target: Record<string, string | number | null>): void {
  log.info({ audit: { actor, action, ...target }, at: new Date(now()).toISOString() }, 'audit');
}
