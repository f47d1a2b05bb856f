/**
 * What the page reads from its own token (a signed JWT, docs/api.md §6): who is signed in, and
 * when to ask for a fresh one. The service checks every request; nothing here grants anything.
 */
export interface TokenClaims {
  /** The username. */
  sub?: string;
  /** Issued and expires, in seconds since the epoch (the service's clock). */
  iat?: number;
  exp?: number;
  /** A session token: when its password was given. Absent on a device token. */
  login?: number;
  /** A device token: its id. */
  tid?: number;
  permissions?: number;
}

/** The token's payload, or an empty object for anything that is not a readable JWT. */
export function tokenClaims(token: string): TokenClaims {
  const payload = token.split('.')[1];
  if (!payload) return {};
  try {
    // base64url of UTF-8 bytes: a username may be any printable text.
    const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const text = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as TokenClaims) : {};
  } catch {
    return {};
  }
}

/** The username the token was issued to, or null. */
export function tokenUsername(token: string | null): string | null {
  const sub = token ? tokenClaims(token).sub : undefined;
  return typeof sub === 'string' ? sub : null;
}

/**
 * The permissions a token carries, read from its (signed) payload so that the page can disable
 * what the service would refuse. The service still checks every request: this only spares the
 * grower a 403.
 */
export function tokenPermissions(token: string): number {
  const { permissions } = tokenClaims(token);
  return typeof permissions === 'number' ? permissions : 0;
}

/** The longest the page asks before its token expires: time enough for a slow network or a throttled tab. */
export const REFRESH_LEAD_MAX_MS = 5 * 60_000;

/**
 * When the token stops working by the browser's clock, or null when it does not say. The
 * service's clock may differ from the browser's, so its lifetime (`exp − iat`) is counted from
 * when the page received it (`receivedAtMs`); when that is not known, from `iat`.
 */
export function expiresAtMs(token: string, receivedAtMs: number | null): number | null {
  const { iat, exp } = tokenClaims(token);
  if (typeof iat !== 'number' || typeof exp !== 'number' || !(exp > iat)) return null;
  return (receivedAtMs ?? iat * 1000) + (exp - iat) * 1000;
}

/**
 * How long from `nowMs` until the token should be refreshed, or null for a token that cannot be
 * (a device token, or one without its times): a fifth of its lifetime before it expires, at most
 * five minutes before. Never negative: an overdue refresh is due now.
 */
export function refreshDelayMs(token: string, receivedAtMs: number | null, nowMs: number): number | null {
  const { iat, exp, login, tid } = tokenClaims(token);
  const expires = expiresAtMs(token, receivedAtMs);
  if (login === undefined || tid !== undefined || expires === null) return null;
  const leadMs = Math.min(REFRESH_LEAD_MAX_MS, ((exp as number) - (iat as number)) * 200);
  return Math.max(0, expires - leadMs - nowMs);
}
