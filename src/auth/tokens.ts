import { randomBytes, randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { SettingRepository } from '../store/repositories/settings.js';

/** Who a token is issued to: the user as the store has it at that moment. */
export interface TokenSubject {
  user_id: number;
  username: string;
  permissions: number;
  token_generation: number;
}

export interface TokenClaims {
  sub: string;
  /** The user's id: a user removed and created again under the same name does not inherit its tokens. */
  uid: number;
  /** The user's token generation when issued; logout moves it on, which revokes the token. */
  gen: number;
  permissions: number;
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

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

export function tokenService(secret: Uint8Array, defaultTtlMs: number) {
  return {
    /** A signed HS256 JWT for the user, valid `ttlMs` from `now`. */
    async issue(user: TokenSubject, now: number, ttlMs = defaultTtlMs): Promise<string> {
      return new SignJWT({ permissions: user.permissions, uid: user.user_id, gen: user.token_generation })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.username)
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.floor((now + ttlMs) / 1000))
        .setJti(randomUUID())
        .sign(secret);
    },

    /** The claims of a well-formed, unexpired token signed with our secret; undefined otherwise. */
    async verify(token: string, now: number): Promise<TokenClaims | undefined> {
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ['HS256'],
          currentDate: new Date(now),
          requiredClaims: ['sub', 'iat', 'exp', 'jti'],
        });
        if (typeof payload.sub !== 'string' || !isCount(payload.permissions) || !isCount(payload.uid) || !isCount(payload.gen)) {
          return undefined;
        }
        return { sub: payload.sub, uid: payload.uid, gen: payload.gen, permissions: payload.permissions };
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
        throw error;
      }
    },
  };
}

export type TokenService = ReturnType<typeof tokenService>;
