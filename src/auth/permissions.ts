/** Permission bit flags carried by users and tokens (docs/api.md §6, §6.1). */
export const PERMISSIONS = {
  post_measurements: 1,
  read: 2,
  modify: 4,
  admin: 8,
  /** What a pump controller needs and no more: its actuators' state and settings, run reports, actuator events. */
  control: 16,
} as const;

export type PermissionName = keyof typeof PERMISSIONS;

export const ALL_PERMISSIONS = 31;
/** What a user created through /users/new/ gets. */
export const NEW_USER_PERMISSIONS = PERMISSIONS.read | PERMISSIONS.modify;

/**
 * What a route needs in AUTH_MODE=enforced: one permission, any one of several (a pump
 * controller's routes take `control` as well as `read` or `modify`), or `public` for none at all.
 */
export type RouteAccess = PermissionName | readonly PermissionName[] | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

/** The bits of which a token needs at least one to pass a route's access. */
export function accessBits(access: Exclude<RouteAccess, 'public'>): number {
  return typeof access === 'string' ? PERMISSIONS[access] : access.reduce((bits, name) => bits | PERMISSIONS[name], 0);
}

/** The names' bits; throws on an unknown name. */
export function permissionsOfNames(names: readonly string[]): number {
  let bits = 0;
  for (const name of names) {
    if (!Object.hasOwn(PERMISSIONS, name)) {
      throw new Error(`unknown permission "${name}" (known: ${Object.keys(PERMISSIONS).join(', ')})`);
    }
    bits |= PERMISSIONS[name as PermissionName];
  }
  return bits;
}

/** `post_measurements,read` → 3; throws on an unknown name. */
export function parsePermissions(list: string): number {
  return permissionsOfNames(
    list
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  );
}

export function permissionNames(bits: number): PermissionName[] {
  return (Object.keys(PERMISSIONS) as PermissionName[]).filter((name) => (bits & PERMISSIONS[name]) !== 0);
}
