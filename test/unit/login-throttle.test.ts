import { describe, expect, it } from 'vitest';
import { loginThrottle } from '../../src/auth/login-throttle.js';
import { parsePermissions, permissionNames } from '../../src/auth/permissions.js';

const limits = { windowMs: 60_000, perUsername: 3, perAddress: 5 };

describe('loginThrottle', () => {
  it('refuses a username after its limit of failures, until the oldest leaves the window', () => {
    const throttle = loginThrottle(limits);
    for (const t of [0, 10_000, 20_000]) {
      expect(throttle.retryAfter('ana', '10.0.0.1', t)).toBe(0);
      throttle.failed('ana', '10.0.0.1', t);
    }
    expect(throttle.retryAfter('ana', '10.0.0.2', 20_001)).toBe(40);
    expect(throttle.retryAfter('ANA', '10.0.0.2', 59_999)).toBe(1);
    expect(throttle.retryAfter('ana', '10.0.0.2', 60_000)).toBe(0);
    expect(throttle.retryAfter('bob', '10.0.0.1', 20_001)).toBe(0);
  });

  it('refuses an address that tries many usernames', () => {
    const throttle = loginThrottle(limits);
    for (let i = 0; i < 5; i++) throttle.failed(`user${i}`, '10.0.0.9', 1000 * i);
    expect(throttle.retryAfter('someone-else', '10.0.0.9', 5000)).toBe(55);
    expect(throttle.retryAfter('someone-else', '10.0.0.8', 5000)).toBe(0);
  });

  it('forgets a username’s failures after a success', () => {
    const throttle = loginThrottle(limits);
    throttle.failed('ana', 'a', 0);
    throttle.failed('ana', 'b', 1);
    throttle.succeeded('ana');
    throttle.failed('ana', 'c', 2);
    expect(throttle.retryAfter('ana', 'd', 3)).toBe(0);
  });
});

describe('permission names', () => {
  it('reads and writes the bit flags', () => {
    expect(parsePermissions('post_measurements,read')).toBe(3);
    expect(parsePermissions('modify, admin')).toBe(12);
    expect(parsePermissions('')).toBe(0);
    expect(permissionNames(6)).toEqual(['read', 'modify']);
    expect(() => parsePermissions('read,fly')).toThrow(/fly/);
  });
});
