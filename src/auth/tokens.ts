import type * as Jose from 'jose';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { SettingRepository } from '../store/index.js';

/** jose, loaded with the first token signed or checked: an open service without logins never needs it. */
let joseModule: Promise<typeof Jose> | undefined;
const jose = () => (joseModule ??= import('jose'));

/** Who a token is issued to: the user as the store has it at that moment. */
export interface TokenSubject {
  user_id: number;
  username: string;
  permissions: number;
  token_generation: number;
  /** Moved on by a logout, which ends the tokens obtained with a password (absent: 0). */
  session_generation?: number;
}

export interface TokenClaims {
  sub: string;
  /** The user's id: a user removed and created again under the same name does not inherit its tokens. */
  uid: number;
  /** The user's token generation when issued; logout moves it on, which revokes the token. */
  gen: number;
  permissions: number;
  /** When the token stops being valid, in seconds since the epoch (JWT `exp`). */
  exp: number;
  /**
   * A device token: its row in the store (`device_tokens`), which a revocation removes. Absent on
   * the tokens obtained with a password, and on device tokens made before there was that table.
   */
  tid?: number;
  /** A session token (obtained with a password): the user's session generation when issued. */
  sgen?: number;
  /** A session token: when the password was given, in seconds since the epoch (kept by a refresh). */
  login?: number;
}

/** What kind of token to issue: a session (a password was given at `loginAt`, ms) or a stored device token. */
export type TokenKind = { session: { loginAt: number } } | { device: { tokenId: number } };

const SECRET_KEY = 'token_secret';
/** A one-way fingerprint of the secret the server last started with, so other tools can check theirs. */
const FINGERPRINT_KEY = 'token_secret_fingerprint';

/** An HMAC keyed with the secret: says whether two secrets are the same without revealing either. */
export function secretFingerprint(secret: string): string {
  return createHmac('sha256', secret).update('sensorhub token secret fingerprint').digest('base64url');
}

/**
 * The server's signing secret: TOKEN_SECRET, or one generated at first start and kept in the store,
 * so tokens survive restarts and every process on the same store signs alike. The first process to
 * store one wins; the others read it back. The secret's fingerprint is recorded for the CLI.
 */
export async function tokenSecret(configured: string | undefined, settings: SettingRepository): Promise<Uint8Array> {
  let secret = configured;
  if (!secret) {
    await settings.setIfAbsent(SECRET_KEY, randomBytes(48).toString('base64url'));
    secret = await settings.get(SECRET_KEY);
    if (!secret) throw new Error('the token secret could not be stored');
  }
  await settings.set(FINGERPRINT_KEY, secretFingerprint(secret));
  return new TextEncoder().encode(secret);
}

/** The secret a tool other than the server would sign with does not match the server's. */
export class SecretMismatch extends Error {}

/**
 * The secret for tokens made outside the server (the users CLI): the same the server signs with,
 * or an error saying why not. Never generates or stores one: a secret the server does not use
 * would only make tokens it rejects.
 */
export async function toolTokenSecret(configured: string | undefined, settings: SettingRepository): Promise<Uint8Array> {
  const expected = await settings.get(FINGERPRINT_KEY);
  const secret = configured ?? (await settings.get(SECRET_KEY));
  if (!secret) {
    throw new SecretMismatch(
      expected
        ? 'TOKEN_SECRET is not set, but the server on this store was started with one: set the same TOKEN_SECRET ' +
            '(environment or .env in the working directory)'
        : 'TOKEN_SECRET is not set and the store holds no generated secret: set the TOKEN_SECRET the server uses ' +
            '(environment or .env in the working directory), or start the server once so it generates one',
    );
  }
  if (expected !== undefined && expected !== secretFingerprint(secret)) {
    throw new SecretMismatch(
      configured
        ? 'TOKEN_SECRET differs from the secret the server on this store was started with: its tokens would be rejected; ' +
            "use the server's TOKEN_SECRET (environment or .env in the working directory)"
        : 'TOKEN_SECRET is not set, but the server on this store was started with one: set the same TOKEN_SECRET ' +
            '(environment or .env in the working directory)',
    );
  }
  return new TextEncoder().encode(secret);
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

export function tokenService(secret: Uint8Array, defaultTtlMs: number) {
  return {
    /**
     * A signed HS256 JWT for the user, valid `ttlMs` from `now`: by default a session token whose
     * password was given now. `permissions` narrows what it carries (a refresh keeps what it had).
     */
    async issue(
      user: TokenSubject,
      now: number,
      ttlMs = defaultTtlMs,
      kind: TokenKind = { session: { loginAt: now } },
      permissions = user.permissions,
    ): Promise<string> {
      const extra =
        'session' in kind
          ? { sgen: user.session_generation ?? 0, login: Math.floor(kind.session.loginAt / 1000) }
          : { tid: kind.device.tokenId };
      const { SignJWT } = await jose();
      return new SignJWT({ permissions, uid: user.user_id, gen: user.token_generation, ...extra })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.username)
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.floor((now + ttlMs) / 1000))
        .setJti(randomUUID())
        .sign(secret);
    },

    /** The claims of a well-formed, unexpired token signed with our secret; undefined otherwise. */
    async verify(token: string, now: number): Promise<TokenClaims | undefined> {
      const { errors, jwtVerify } = await jose();
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ['HS256'],
          currentDate: new Date(now),
          requiredClaims: ['sub', 'iat', 'exp', 'jti'],
        });
        const { sub, permissions, uid, gen, exp, tid, sgen, login } = payload;
        if (typeof sub !== 'string' || !isCount(permissions) || !isCount(uid) || !isCount(gen) || !isCount(exp)) return undefined;
        const optional = [tid, sgen, login];
        if (optional.some((v) => v !== undefined && !isCount(v)) || (tid !== undefined && sgen !== undefined)) return undefined;
        return {
          sub,
          uid,
          gen,
          permissions,
          exp,
          tid: tid as number | undefined,
          sgen: sgen as number | undefined,
          login: login as number | undefined,
        };
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
        throw error;
      }
    },
  };
}

export type TokenService = ReturnType<typeof tokenService>;
