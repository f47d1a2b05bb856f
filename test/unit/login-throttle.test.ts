import { describe, expect, it } from 'vitest';
import { addressBucket, loginThrottle } from '../../src/auth/login-throttle.js';
import { parsePermissions, permissionNames } from '../../src/auth/permissions.js';

const limits = { windowMs: 60_000, perUsername: 3, perAddress: 5 };

describe('loginThrottle', () => {
  it('refuses a username after its limit of failures, until the oldest leaves the window', () => {
    const throttle = loginThrottle(limits);
    for (const t of [0, 10_000, 20_000]) expect(throttle.admit('ana', '10.0.0.1', t)).toBe(0);
    expect(throttle.admit('ana', '10.0.0.2', 20_001)).toBe(40);
    expect(throttle.admit('ANA', '10.0.0.2', 59_999)).toBe(1);
    expect(throttle.admit('ana', '10.0.0.2', 60_000)).toBe(0);
    expect(throttle.admit('bob', '10.0.0.3', 20_001)).toBe(0);
  });

  it('does not count refused attempts: waiting out the window is enough', () => {
    const throttle = loginThrottle(limits);
    for (const t of [0, 1, 2]) throttle.admit('ana', `10.0.0.${t}`, t);
    for (let t = 3; t < 60_000; t += 1000) expect(throttle.admit('ana', '10.0.1.1', t)).toBeGreaterThan(0);
    expect(throttle.admit('ana', '10.0.1.1', 60_001)).toBe(0);
  });

  it('refuses an address that tries many usernames', () => {
    const throttle = loginThrottle(limits);
    for (let i = 0; i < 5; i++) expect(throttle.admit(`user${i}`, '10.0.0.9', 1000 * i)).toBe(0);
    expect(throttle.admit('someone-else', '10.0.0.9', 5000)).toBe(55);
    expect(throttle.admit('someone-else', '10.0.0.8', 5000)).toBe(0);
  });

  it('counts an attempt as a failure until it succeeds, so concurrent guesses cannot pass the limit', () => {
    const throttle = loginThrottle(limits);
    // Ten guesses arrive before the first one has been checked: only three get through.
    const admitted = Array.from({ length: 10 }, () => throttle.admit('ana', '10.0.0.1', 100)).filter((wait) => wait === 0);
    expect(admitted).toHaveLength(3);
  });

  it('forgets a username’s failures after a success, and does not count the success against the address', () => {
    const throttle = loginThrottle(limits);
    throttle.admit('ana', 'a', 0);
    throttle.admit('ana', 'b', 1);
    expect(throttle.admit('ana', 'c', 2)).toBe(0);
    throttle.succeeded('ana', 'c', 2);
    expect(throttle.admit('ana', 'd', 3)).toBe(0);
    expect(throttle.admit('ana', 'd', 4)).toBe(0);
    expect(throttle.admit('ana', 'd', 5)).toBe(0);
    expect(throttle.admit('ana', 'd', 6)).toBeGreaterThan(0);

    const fromOneAddress = loginThrottle(limits);
    for (let i = 0; i < 20; i++) {
      expect(fromOneAddress.admit(`user${i}`, '10.0.0.1', i)).toBe(0);
      fromOneAddress.succeeded(`user${i}`, '10.0.0.1', i);
    }
  });

  it('counts the addresses of one IPv6 /64 together', () => {
    const throttle = loginThrottle(limits);
    for (let i = 1; i <= 5; i++) expect(throttle.admit(`user${i}`, `2001:db8:1:2::${i}`, i)).toBe(0);
    expect(throttle.admit('other', '2001:db8:1:2:ffff:1:2:3', 10)).toBeGreaterThan(0);
    expect(throttle.admit('other', '2001:db8:1:3::1', 10)).toBe(0);
  });

  it('tracks a bounded number of usernames and addresses, forgetting the least recent first', () => {
    const throttle = loginThrottle({ ...limits, perAddress: 1_000_000, maxTracked: 100 });
    for (let i = 0; i < 1000; i++) throttle.admit(`made-up-${i}`, '10.0.0.1', i);
    expect(throttle.tracked()).toBeLessThanOrEqual(100);
    // The address keeps failing, so it stays tracked while usernames come and go.
    const busy = loginThrottle({ windowMs: 60_000, perUsername: 3, perAddress: 60, maxTracked: 10 });
    for (let i = 0; i < 60; i++) busy.admit(`made-up-${i}`, '10.0.0.1', i);
    expect(busy.admit('made-up-x', '10.0.0.1', 100)).toBeGreaterThan(0);
  });
});

describe('loginThrottle memory', () => {
  it('holds fixed-size keys whatever the username', () => {
    const throttle = loginThrottle({ ...limits, perAddress: 1_000_000, maxTracked: 50 });
    const huge = 'x'.repeat(1_000_000);
    for (let i = 0; i < 200; i++) throttle.admit(`${huge}${i}`, `10.0.${i % 7}.1`, i);
    for (let i = 0; i < 20; i++) throttle.admit(huge, '10.0.0.1', 1000 + i);
    const { keyChars } = throttle.footprint();
    expect(throttle.tracked()).toBeLessThanOrEqual(50);
    // Digests of 43 characters: nothing of the million-character usernames is kept.
    expect(keyChars).toBeLessThanOrEqual(50 * 43);
  });

  it('still tells usernames apart by case-insensitive name after hashing', () => {
    const throttle = loginThrottle(limits);
    for (const t of [0, 1, 2]) throttle.admit('Ana', `10.0.0.${t}`, t);
    expect(throttle.admit('aNA', '10.0.1.1', 3)).toBeGreaterThan(0);
    expect(throttle.admit('anna', '10.0.1.1', 3)).toBe(0);
  });
});

describe('addressBucket', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2::5', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s → %s', (ip, bucket) => {
    expect(addressBucket(ip)).toBe(bucket);
  });
});

describe('permission names', () => {
  it('reads and writes the bit flags', () => {
    expect(parsePermissions('post_measurements,read')).toBe(3);
    expect(parsePermissions('modify, admin')).toBe(12);
    expect(parsePermissions('')).toBe(0);
    expect(permissionNames(6)).toEqual(['read', 'modify']);
    expect(permissionNames(15)).toEqual(['post_measurements', 'read', 'modify', 'admin']);
    expect(() => parsePermissions('read,fly')).toThrow(/fly/);
    expect(() => parsePermissions('constructor')).toThrow(/constructor/);
    expect(() => parsePermissions('toString')).toThrow(/toString/);
  });
});
