import { randomBytes, randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { SettingRepository } from '../store/settings.js';

export interface TokenClaims {
  sub: string;
  permissions: number;
  /** Issue time in ms: revocation by logout compares against it exactly (iat has 1 s resolution). */
  iat_ms: number;
  jti: string;
  exp: number;
}

const SECRET_KEY = 'token_secret';

/**
 * The signing secret: TOKEN_SECRET, or one generated at first start and kept in the store, so
 * tokens survive restarts and every process on the same store signs alike. The first process to
 * store one wins; the others read it back.
 */
export async function tokenSecret(configured: string | undefined, settings: SettingRepository): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await settings.setIfAbsent(SECRET_KEY, randomBytes(48).toString('base64url'));
  const stored = await settings.get(SECRET_KEY);
  if (!stored) throw new Error('the token secret could not be stored');
  return new TextEncoder().encode(stored);
}

export function tokenService(secret: Uint8Array, defaultTtlMs: number) {
  return {
    async issue(username: string, permissions: number, now: number, ttlMs = defaultTtlMs): Promise<string> {
      return new SignJWT({ permissions, iat_ms: now })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(username)
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.floor((now + ttlMs) / 1000))
        .setJti(randomUUID())
        .sign(secret);
    },

    /** The claims of a valid, unexpired token signed with our secret; undefined otherwise. */
    async verify(token: string, now: number): Promise<TokenClaims | undefined> {
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], currentDate: new Date(now) });
        if (typeof payload.sub !== 'string' || typeof payload.permissions !== 'number' || typeof payload.iat_ms !== 'number') {
          return undefined;
        }
        return payload as unknown as TokenClaims;
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
        throw error;
      }
    },
  };
}

export type TokenService = ReturnType<typeof tokenService>;
