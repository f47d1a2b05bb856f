import { describe, expect, it } from 'vitest';
import { PERMISSION } from '../src/domain/permissions';
import {
  devicePassword,
  localDate,
  localDateTime,
  newPasswordProblems,
  PERMISSION_CHOICES,
  permissionWords,
  riskyForDevice,
  tokenExpired,
} from '../src/domain/users';

describe('PERMISSION_CHOICES', () => {
  it('offers every permission once, in the order a grower reads them', () => {
    expect(PERMISSION_CHOICES.map((c) => c.name)).toEqual(['read', 'post_measurements', 'control', 'modify', 'admin']);
    expect(PERMISSION_CHOICES.reduce((bits, c) => bits | c.bit, 0)).toBe(31);
    expect(PERMISSION_CHOICES.find((c) => c.name === 'control')).toMatchObject({ bit: 16, label: 'Control' });
  });
});

describe('permissionWords', () => {
  it('names the bits in words, in the offered order', () => {
    expect(permissionWords(PERMISSION.postMeasurements | PERMISSION.read)).toBe('read, post measurements');
    expect(permissionWords(31)).toBe('read, post measurements, control, modify, admin');
    expect(permissionWords(0)).toBe('no permission');
  });
});

describe('riskyForDevice', () => {
  it('holds for modify or admin, not for what devices need', () => {
    expect(riskyForDevice(PERMISSION.modify)).toBe(true);
    expect(riskyForDevice(PERMISSION.admin)).toBe(true);
    expect(riskyForDevice(PERMISSION.postMeasurements | PERMISSION.control | PERMISSION.read)).toBe(false);
  });
});

describe('newPasswordProblems', () => {
  it('asks for the same password twice and leaves the rest to the service', () => {
    expect(newPasswordProblems('tomatoes-2026', 'tomatoes-2026')).toEqual({});
    expect(newPasswordProblems('short', 'short')).toEqual({});
    expect(newPasswordProblems('tomatoes-2026', 'tomatoes-2025')).toEqual({ password_again: 'The two passwords differ.' });
  });
});

describe('devicePassword', () => {
  it('is 32 URL-safe characters from 24 random bytes, different each time', () => {
    expect(devicePassword(new Uint8Array(24).fill(255))).toBe('_'.repeat(32));
    const one = devicePassword();
    expect(one).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(devicePassword()).not.toBe(one);
  });
});

describe('local times', () => {
  it('shows the date and time in the zone given, naming the zone', () => {
    expect(localDateTime('2026-11-24T20:55:14.000Z', 'en-GB', 'UTC')).toBe('24 Nov 2026, 20:55 UTC');
    expect(localDateTime('2026-07-01T12:00:00.000Z', 'en-GB', 'Europe/Berlin')).toBe('1 Jul 2026, 14:00 CEST');
    expect(localDate('2026-11-24T23:30:00.000Z', 'en-GB', 'Asia/Tokyo')).toBe('25 Nov 2026');
  });

  it('keeps a text that is not a date as it came', () => {
    expect(localDateTime('soon', 'en-GB', 'UTC')).toBe('soon');
    expect(localDate('soon', 'en-GB', 'UTC')).toBe('soon');
  });
});

describe('tokenExpired', () => {
  it('holds from the expiry on', () => {
    const at = Date.parse('2026-11-24T20:00:00.000Z');
    expect(tokenExpired('2026-11-24T20:00:00.000Z', at - 1)).toBe(false);
    expect(tokenExpired('2026-11-24T20:00:00.000Z', at)).toBe(true);
  });
});
