import { describe, expect, it } from 'vitest';
import { expiresAtMs, REFRESH_LEAD_MAX_MS, refreshDelayMs, tokenClaims, tokenUsername } from '../src/domain/session-token';

/** An unsigned token with these claims: the page reads the payload only. */
const token = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;

const IAT = 1_800_000_000;
const HOUR = 3600;
const session = (lifetimeS = HOUR) => token({ sub: 'grower', iat: IAT, exp: IAT + lifetimeS, login: IAT, permissions: 31 });

describe('tokenClaims', () => {
  it('reads the payload, including base64url characters', () => {
    expect(tokenClaims(token({ sub: 'ü?>', permissions: 3 }))).toEqual({ sub: 'ü?>', permissions: 3 });
  });

  it('is empty for anything that is not a readable JWT', () => {
    expect(tokenClaims('')).toEqual({});
    expect(tokenClaims('a.%%%.c')).toEqual({});
    expect(tokenClaims(`h.${Buffer.from('3').toString('base64url')}.s`)).toEqual({});
    expect(tokenClaims(`h.${Buffer.from('null').toString('base64url')}.s`)).toEqual({});
  });
});

describe('tokenUsername', () => {
  it('is the subject, or null', () => {
    expect(tokenUsername(session())).toBe('grower');
    expect(tokenUsername(token({ sub: 7 }))).toBeNull();
    expect(tokenUsername(null)).toBeNull();
  });
});

describe('expiresAtMs', () => {
  it('counts the lifetime from the receipt, whatever the service’s clock says', () => {
    expect(expiresAtMs(session(), 5_000)).toBe(5_000 + HOUR * 1000);
  });

  it('counts from the issue time when the receipt is not known', () => {
    expect(expiresAtMs(session(), null)).toBe((IAT + HOUR) * 1000);
  });

  it('is null without both times, or with no lifetime', () => {
    expect(expiresAtMs(token({ iat: IAT }), 0)).toBeNull();
    expect(expiresAtMs(token({ exp: IAT }), 0)).toBeNull();
    expect(expiresAtMs(token({ iat: IAT, exp: IAT }), 0)).toBeNull();
  });
});

describe('refreshDelayMs', () => {
  const received = 1_000_000;

  it('refreshes an hour-long session five minutes before it ends', () => {
    expect(refreshDelayMs(session(), received, received)).toBe(HOUR * 1000 - REFRESH_LEAD_MAX_MS);
    expect(refreshDelayMs(session(), received, received + 10 * 60_000)).toBe(45 * 60_000);
  });

  it('refreshes a short session a fifth of its lifetime before it ends', () => {
    expect(refreshDelayMs(session(60), received, received)).toBe(48_000);
    // The lead reaches five minutes at a 25-minute lifetime, and stays there.
    expect(refreshDelayMs(session(25 * 60), received, received)).toBe(20 * 60_000);
  });

  it('is due at once when overdue, never negative', () => {
    expect(refreshDelayMs(session(), received, received + HOUR * 1000 - 1)).toBe(0);
    expect(refreshDelayMs(session(), received, received + 2 * HOUR * 1000)).toBe(0);
  });

  it('does not refresh a device token, or a token without a login time or its times', () => {
    expect(refreshDelayMs(token({ iat: IAT, exp: IAT + HOUR, tid: 4 }), received, received)).toBeNull();
    expect(refreshDelayMs(token({ iat: IAT, exp: IAT + HOUR, login: IAT, tid: 4 }), received, received)).toBeNull();
    expect(refreshDelayMs(token({ iat: IAT, exp: IAT + HOUR }), received, received)).toBeNull();
    expect(refreshDelayMs(token({ login: IAT, exp: IAT + HOUR }), received, received)).toBeNull();
    expect(refreshDelayMs('not a token', received, received)).toBeNull();
  });
});
