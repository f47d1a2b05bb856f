import type { FieldErrors } from '../api/errors';
import { PERMISSION, PERMISSION_NAMES, type PermissionName } from './permissions';

/** The permissions as the Users & devices page offers them: what a person reads first, then what a device needs, then the powerful ones. */
export const PERMISSION_CHOICES: readonly { bit: number; name: PermissionName; label: string; meaning: string }[] = (
  [
    ['read', 'Read'],
    ['post_measurements', 'Post measurements'],
    ['control', 'Control'],
    ['modify', 'Modify'],
    ['admin', 'Admin'],
  ] as const
).map(([name, label]) => {
  const known = PERMISSION_NAMES.find((p) => p.name === name)!;
  return { bit: known.bit, name, label, meaning: known.meaning };
});

/** "read, post measurements" (in the order above), or "no permission". */
export function permissionWords(bits: number): string {
  const words = PERMISSION_CHOICES.filter((c) => (bits & c.bit) !== 0).map((c) => c.label.toLowerCase());
  return words.length > 0 ? words.join(', ') : 'no permission';
}

/** Permissions a device token had better not carry: whoever holds it could change settings or users. */
export function riskyForDevice(bits: number): boolean {
  return (bits & (PERMISSION.modify | PERMISSION.admin)) !== 0;
}

/** The password typed twice must match; its length is the service's to judge (it answers 422 with its rule). */
export function newPasswordProblems(password: string, again: string): FieldErrors {
  return password === again ? {} : { password_again: 'The two passwords differ.' };
}

/**
 * The password of a user made for a device, which never signs in with one (it uses device
 * tokens): random, never shown. The service requires every user to have a password.
 */
export function devicePassword(random: Uint8Array = crypto.getRandomValues(new Uint8Array(24))): string {
  return btoa(String.fromCharCode(...random))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** How long a new device token is valid unless the grower says otherwise: a year, then it is made again. */
export const DEVICE_TOKEN_DAYS = 365;

/** An instant as the grower reads it: local date and time, with the zone named. */
export function localDateTime(iso: string, locale?: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // dateStyle and timeStyle do not combine with timeZoneName: the parts are named one by one.
  return date.toLocaleString(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone,
  });
}

/** A local date alone ("24 Nov 2026"), for expiry and creation dates. */
export function localDate(iso: string, locale?: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(locale, { dateStyle: 'medium', timeZone });
}

/** Whether the token has expired at `nowMs` (it is still listed until revoked). */
export const tokenExpired = (expiresAt: string, nowMs: number) => Date.parse(expiresAt) <= nowMs;
