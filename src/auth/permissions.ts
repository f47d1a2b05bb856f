/** Permission bit flags carried by users and tokens (API.md §6). */
export const PERMISSIONS = {
  post_measurements: 1,
  read: 2,
  modify: 4,
  admin: 8,
} as const;

export type PermissionName = keyof typeof PERMISSIONS;

export const ALL_PERMISSIONS = 15;
/** What a user created through /users/new/ gets. */
export const NEW_USER_PERMISSIONS = PERMISSIONS.read | PERMISSIONS.modify;

/** What a route needs in AUTH_MODE=enforced: one permission, or `public` for none at all. */
export type RouteAccess = PermissionName | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

/** `post_measurements,read` → 3; throws on an unknown name. */
export function parsePermissions(list: string): number {
  let bits = 0;
  for (const name of list
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)) {
    if (!Object.hasOwn(PERMISSIONS, name)) {
      throw new Error(`unknown permission "${name}" (known: ${Object.keys(PERMISSIONS).join(', ')})`);
    }
    bits |= PERMISSIONS[name as PermissionName];
  }
  return bits;
}

export function permissionNames(bits: number): PermissionName[] {
  return (Object.keys(PERMISSIONS) as PermissionName[]).filter((name) => (bits & PERMISSIONS[name]) !== 0);
}
