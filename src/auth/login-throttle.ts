import { createHash } from 'node:crypto';

/**
 * Slows brute force on /token, in memory, per process: a sliding window of failed logins per
 * username and per client address. Once either holds its limit, further attempts are refused (429)
 * until the oldest failure leaves the window; the right password works again after that, and a
 * success forgets the username's failures.
 *
 * An attempt counts as a failure from the moment it is admitted (before the password is checked)
 * and is withdrawn when it succeeds, so a burst of concurrent guesses cannot slip past the limit
 * while the first ones are still being hashed.
 */
export interface ThrottleLimits {
  windowMs: number;
  perUsername: number;
  perAddress: number;
  /**
   * How many usernames and addresses are tracked at most; past that the least recently failing
   * are forgotten first, so a flood of made-up usernames cannot exhaust memory.
   */
  maxTracked?: number;
}

const DEFAULT_LIMITS: Required<ThrottleLimits> = { windowMs: 15 * 60_000, perUsername: 5, perAddress: 20, maxTracked: 100_000 };

/**
 * The address an attempt is counted against: an IPv4 address as is (also when IPv4-mapped), an
 * IPv6 address by its /64 prefix, since one machine commonly holds a whole /64.
 */
export function addressBucket(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(':')) return ip;
  const address = ip.split('%')[0].toLowerCase();
  const [head, tail] = address.split('::');
  const front = head ? head.split(':') : [];
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? front : [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16).toString(16) : g))
    .join(':')}::/64`;
}

export function loginThrottle(options: ThrottleLimits = DEFAULT_LIMITS) {
  const limits = { ...DEFAULT_LIMITS, ...options };
  /** Failure times per key, oldest first; a key's place in the map says how recently it failed. */
  const failures = new Map<string, number[]>();

  // Keys are digests of a fixed size, so what the map holds per entry does not depend on what a
  // client sends: with at most `maxTracked` entries of at most `perUsername`/`perAddress` times
  // each, the throttle's memory has a fixed bound.
  const digest = (text: string) => createHash('sha256').update(text).digest('base64url');
  const userKey = (username: string) => digest(`user:${username.toLowerCase()}`);
  const addressKey = (address: string) => digest(`addr:${addressBucket(address)}`);

  function recent(key: string, now: number): number[] {
    const list = failures.get(key);
    if (!list) return [];
    const kept = list.filter((t) => t > now - limits.windowMs);
    if (kept.length === 0) failures.delete(key);
    else if (kept.length !== list.length) failures.set(key, kept);
    return kept;
  }

  function record(key: string, list: number[]): void {
    failures.delete(key);
    failures.set(key, list);
    if (failures.size <= limits.maxTracked) return;
    const oldest = failures.keys().next().value;
    if (oldest !== undefined) failures.delete(oldest);
  }

  function withdraw(key: string, at: number): void {
    const list = failures.get(key);
    const i = list?.lastIndexOf(at) ?? -1;
    if (!list || i < 0) return;
    list.splice(i, 1);
    if (list.length === 0) failures.delete(key);
  }

  return {
    limits,

    /**
     * 0 when the attempt may go ahead (it is then counted as a failure until `succeeded`), or the
     * seconds to wait before trying again.
     */
    admit(username: string, address: string, now: number): number {
      const checks = [
        [userKey(username), limits.perUsername],
        [addressKey(address), limits.perAddress],
      ] as const;
      let waitMs = 0;
      for (const [key, limit] of checks) {
        const list = recent(key, now);
        if (list.length >= limit) waitMs = Math.max(waitMs, list[list.length - limit] + limits.windowMs - now);
      }
      if (waitMs > 0) return Math.max(1, Math.ceil(waitMs / 1000));
      for (const [key] of checks) record(key, [...recent(key, now), now]);
      return 0;
    },

    /** The attempt admitted at `admittedAt` was right: it was no failure, and the username starts afresh. */
    succeeded(username: string, address: string, admittedAt: number): void {
      failures.delete(userKey(username));
      withdraw(addressKey(address), admittedAt);
    },

    /** How many usernames and addresses are being tracked (for tests and metrics). */
    tracked(): number {
      return failures.size;
    },

    /** The characters held in keys and the failure times held, over every entry (for tests and metrics). */
    footprint(): { keyChars: number; times: number } {
      let keyChars = 0;
      let times = 0;
      for (const [key, list] of failures) {
        keyChars += key.length;
        times += list.length;
      }
      return { keyChars, times };
    },
  };
}
