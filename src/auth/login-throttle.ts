/**
 * Slows brute force on /token: too many failed logins for one username, or from one address,
 * within the window are refused (429) until the oldest of them leaves the window. The right
 * password works again after that; a success clears the username's failures.
 */
export interface ThrottleLimits {
  windowMs: number;
  perUsername: number;
  perAddress: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = { windowMs: 15 * 60_000, perUsername: 5, perAddress: 20 };

export function loginThrottle(limits: ThrottleLimits = DEFAULT_LIMITS) {
  const failures = new Map<string, number[]>();

  function recent(key: string, now: number): number[] {
    const list = (failures.get(key) ?? []).filter((t) => t > now - limits.windowMs);
    if (list.length > 0) failures.set(key, list);
    else failures.delete(key);
    return list;
  }

  const userKey = (username: string) => `user:${username.toLowerCase()}`;
  const addressKey = (address: string) => `addr:${address}`;

  return {
    /** Seconds to wait before trying again, or 0 when the attempt may go ahead. */
    retryAfter(username: string, address: string, now: number): number {
      let wait = 0;
      for (const [key, limit] of [[userKey(username), limits.perUsername], [addressKey(address), limits.perAddress]] as const) {
        const list = recent(key, now);
        if (list.length >= limit) wait = Math.max(wait, list[list.length - limit] + limits.windowMs - now);
      }
      return Math.ceil(wait / 1000);
    },

    failed(username: string, address: string, now: number): void {
      for (const key of [userKey(username), addressKey(address)]) failures.set(key, [...recent(key, now), now]);
    },

    succeeded(username: string): void {
      failures.delete(userKey(username));
    },
  };
}

export type LoginThrottle = ReturnType<typeof loginThrottle>;
