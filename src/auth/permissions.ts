/** Permission bit flags carried by users and tokens (API.md §6). */
export const PERMISSIONS = {
  post_measurements: 1,
  read: 2,
  modify: 4,
  admin: 8,
} as const;

export type PermissionName = keyof typeof PERMISSIONS;

/** What a route needs in AUTH_MODE=enforced: one permission, or `public` for none at all. */
export type RouteAccess = PermissionName | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}
