/** Permission bits of API.md §6. */
export const PERMISSION = { postMeasurements: 1, read: 2, modify: 4, admin: 8 } as const;

/**
 * The permissions a token carries, read from its (signed) payload so that the page can disable
 * what the service would refuse. The service still checks every request: this only spares the
 * grower a 403.
 */
export function tokenPermissions(token: string): number {
  const payload = token.split('.')[1];
  if (!payload) return 0;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as { permissions?: unknown };
    return typeof claims.permissions === 'number' ? claims.permissions : 0;
  } catch {
    return 0;
  }
}
