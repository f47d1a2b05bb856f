/**
 * What a live run checks before it changes anything: in enforced mode its token must be valid
 * and carry every permission the run uses — post measurements (the probe's readings), read (the
 * decision and the alerts) and modify (the tank's sensors and pump, and the run reports). A run
 * refused half way would leave the tank's pump changed and say only "403".
 */
import { PERMISSIONS, type PermissionName } from '../auth/permissions.js';
import type { Api } from './api.js';

/** Every permission a live run needs, by name. */
export const SIMULATE_NEEDS: readonly PermissionName[] = ['post_measurements', 'read', 'modify'];

/** The permissions a bearer token carries (its JWT payload), or undefined when it is no such token. */
function permissionsOf(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const { permissions } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { permissions?: unknown };
    return typeof permissions === 'number' && Number.isInteger(permissions) ? permissions : undefined;
  } catch {
    return undefined;
  }
}

const needed = () => SIMULATE_NEEDS.map((name) => `${name} (${PERMISSIONS[name]})`).join(', ');

/** Null when a live run may go ahead, else what stops it (for a person, naming what to do). */
export async function accessProblem(api: Api, token: string | undefined): Promise<string | null> {
  const settings = await api('GET', '/ui/settings.json');
  const mode = (settings.body as { auth_mode?: unknown } | null)?.auth_mode;
  if (settings.status !== 200 || mode !== 'enforced') return null;
  if (!token) return `the service runs with AUTH_MODE=enforced: give --token with the permissions ${needed()}`;
  const check = await api('GET', '/users/items/');
  if (check.status === 401) return 'the token was refused (expired, revoked or not this service’s): make a new one';
  const bits = permissionsOf(token);
  if (bits === undefined) return 'the token carries no permissions the simulator can read';
  const missing = SIMULATE_NEEDS.filter((name) => (bits & PERMISSIONS[name]) === 0);
  if (missing.length === 0) return null;
  return (
    `the token lacks ${missing.map((name) => `${name} (${PERMISSIONS[name]})`).join(', ')}; a live run needs ${needed()}. ` +
    'Nothing was changed.'
  );
}
