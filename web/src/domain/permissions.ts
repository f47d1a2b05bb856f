/**
 * Permission names of docs/api.md §6.1, as bodies may give them. Written here because the
 * service's own list (src/auth/permissions.ts) extends Fastify's types, which the page does not
 * load; test/unit/dashboard-permissions.test.ts holds the two lists equal.
 */
export type PermissionName = 'post_measurements' | 'read' | 'modify' | 'admin' | 'control';

/** Permission bits of docs/api.md §6 (`control`: §6.1). */
export const PERMISSION = { postMeasurements: 1, read: 2, modify: 4, admin: 8, control: 16 } as const;

/** Each bit with the name bodies use (§6.1) and what it lets a person or a device do. */
export const PERMISSION_NAMES: readonly { bit: number; name: PermissionName; meaning: string }[] = [
  { bit: PERMISSION.postMeasurements, name: 'post_measurements', meaning: 'post measurements (a sensor device)' },
  { bit: PERMISSION.read, name: 'read', meaning: 'read measurements and settings' },
  { bit: PERMISSION.modify, name: 'modify', meaning: 'change tanks, sensors and pumps' },
  { bit: PERMISSION.admin, name: 'admin', meaning: 'manage users and devices' },
  { bit: PERMISSION.control, name: 'control', meaning: 'poll pump decisions and report runs (a pump controller)' },
];

/** The names of the bits set in `permissions`, in bit order. */
export function permissionNames(permissions: number): PermissionName[] {
  return PERMISSION_NAMES.filter((p) => (permissions & p.bit) !== 0).map((p) => p.name);
}

/** The bits of a set of names; unknown names add nothing. */
export function permissionBits(names: readonly string[]): number {
  return PERMISSION_NAMES.filter((p) => names.includes(p.name)).reduce((bits, p) => bits | p.bit, 0);
}
