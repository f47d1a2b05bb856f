import type { FastifyRequest } from 'fastify';
import { Forbidden, Unauthenticated } from '../services/errors.js';
import type { Store } from '../store/index.js';
import type { TokenService } from './tokens.js';

export interface Principal {
  user_id: number;
  username: string;
  /** What the token grants, narrowed to what the user still has. */
  permissions: number;
  token: string;
  /** The user's token generation the token was issued in: a logout moves the user's on past it. */
  generation: number;
  /** When the token stops being valid (ms since the epoch). */
  expiresAt: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The token may also come as `?access_token=` (browsers' EventSource cannot set headers). */
    tokenInQuery?: boolean;
  }
  interface FastifyRequest {
    /** The user behind the bearer token, once the enforced-mode guard has checked it. */
    principal?: Principal;
  }
}

export const notAuthenticated = () => new Unauthenticated('Not authenticated');
const invalidCredentials = () => new Unauthenticated('Could not validate credentials');
export const forbidden = () => new Forbidden('Not enough permissions');

/**
 * The token of an `Authorization: Bearer …` header ('' for another scheme or a malformed header),
 * or of `?access_token=` on the routes that take it there.
 */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return request.routeOptions.config.tokenInQuery ? queryToken(request) : undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : '';
}

function queryToken(request: FastifyRequest): string | undefined {
  const token = (request.query as Record<string, unknown> | undefined)?.access_token;
  if (token === undefined) return undefined;
  // Given twice, or empty: malformed.
  return typeof token === 'string' ? token.trim() : '';
}

/**
 * The user behind the request's bearer token. Throws 401 without a token, or for one that is
 * forged, expired, malformed, revoked by logout, or whose user no longer exists.
 */
export function authenticator(tokens: TokenService, store: Store, now: () => number) {
  return async function authenticate(request: FastifyRequest): Promise<Principal> {
    const token = bearerToken(request);
    if (token === undefined) throw notAuthenticated();
    const claims = token ? await tokens.verify(token, now()) : undefined;
    if (!claims) throw invalidCredentials();
    const user = await store.users.get(claims.sub);
    if (!user || user.user_id !== claims.uid || user.token_generation !== claims.gen) throw invalidCredentials();
    return {
      user_id: user.user_id,
      username: user.username,
      permissions: claims.permissions & user.permissions,
      token,
      generation: claims.gen,
      expiresAt: claims.exp * 1000,
    };
  };
}

export type Authenticate = ReturnType<typeof authenticator>;
