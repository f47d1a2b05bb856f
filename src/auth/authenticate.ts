import type { FastifyRequest } from 'fastify';
import { Forbidden, Unauthenticated } from '../core/errors.js';
import type { Store } from '../store/index.js';
import type { TokenService } from './tokens.js';
import type { TokenUseNotes } from './token-use.js';

export interface Principal {
  user_id: number;
  username: string;
  /** What the token grants, narrowed to what the user still has. */
  permissions: number;
  token: string;
  /** The user's token generation the token was issued in: the users command line's `revoke` moves the user's on past it. */
  generation: number;
  /**
   * A token obtained with a password (or made before device tokens were stored): the user's
   * session generation it was issued in, which a logout moves on. Undefined for a device token.
   */
  sessionGeneration?: number;
  /** A session token: when its password was given (ms since the epoch); undefined when the token does not say. */
  loginAt?: number;
  /** A device token: its id (`DELETE /tokens/{token_id}` revokes it alone). */
  tokenId?: number;
  /** When the token stops being valid (ms since the epoch). */
  expiresAt: number;
  /** A device token limited to these prototypes (tank-scope.ts); null or undefined: every prototype. */
  prototypeIds?: readonly number[] | null;
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
 * forged, expired, malformed, revoked (a logout for a session token, a revocation for a device
 * token, the users command line's `revoke` for every token), or whose user no longer exists.
 */
export function authenticator(tokens: TokenService, store: Store, now: () => number, uses: TokenUseNotes) {
  return async function authenticate(request: FastifyRequest): Promise<Principal> {
    const token = bearerToken(request);
    if (token === undefined) throw notAuthenticated();
    const at = now();
    const claims = token ? await tokens.verify(token, at) : undefined;
    if (!claims) throw invalidCredentials();
    const [user, device] = await Promise.all([
      store.users.get(claims.sub),
      claims.tid === undefined ? undefined : store.deviceTokens.get(claims.tid),
    ]);
    if (!user || user.user_id !== claims.uid || user.token_generation !== claims.gen) throw invalidCredentials();
    // A token without a device row is a session token; one made before there were any counts as one (session generation 0).
    const sessionGeneration = claims.tid === undefined ? (claims.sgen ?? 0) : undefined;
    if (claims.tid !== undefined && device?.user_id !== user.user_id) throw invalidCredentials();
    if (sessionGeneration !== undefined && user.session_generation !== sessionGeneration) throw invalidCredentials();
    if (claims.tid !== undefined) uses.note(claims.tid, at);
    return {
      user_id: user.user_id,
      username: user.username,
      permissions: claims.permissions & user.permissions,
      token,
      generation: claims.gen,
      sessionGeneration,
      loginAt: claims.login === undefined || claims.tid !== undefined ? undefined : claims.login * 1000,
      tokenId: claims.tid,
      expiresAt: claims.exp * 1000,
      prototypeIds: device?.prototype_ids ?? null,
    };
  };
}

export type Authenticate = ReturnType<typeof authenticator>;
