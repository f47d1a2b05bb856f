import { forbidden, notAuthenticated, type Principal } from '../auth/authenticate.js';
import type { Auth } from '../auth/index.js';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../auth/passwords.js';
import { ALL_PERMISSIONS, NEW_USER_PERMISSIONS, PERMISSIONS, permissionsOfNames } from '../auth/permissions.js';
import type { TokenSubject } from '../auth/tokens.js';
import type { AuthMode } from '../config/index.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { Conflict, InvalidInput, NotFound, TooManyAttempts, Unauthenticated } from '../core/errors.js';
import type { StoredDeviceToken, StoredUser } from '../store/index.js';
import { audit } from './audit.js';
import { issueDeviceToken } from './device-tokens.js';

export interface BearerToken {
  access_token: string;
  token_type: 'bearer';
}

export interface UserView {
  username: string;
  permissions: number;
  created_at: string;
}

const DAY_MS = 24 * 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const userView = (user: StoredUser): UserView => ({
  username: user.username,
  permissions: user.permissions,
  created_at: iso(user.created_at),
});

/** Permissions as the bodies give them (bits, or a list of names) → bits; an unknown name is a 422. */
export function permissionBits(given: number | readonly string[]): number {
  if (typeof given === 'number') return given;
  try {
    return permissionsOfNames(given);
  } catch (error) {
    throw new InvalidInput({ loc: ['body', 'permissions'], msg: (error as Error).message, type: 'enum' });
  }
}

export interface SessionOptions {
  /** How long after the password a session may be refreshed (SESSION_MAX_DAYS). */
  sessionMaxDays: number;
  /** The lifetime of a session token (TOKEN_TTL_MINUTES). */
  tokenTtlMs: number;
}

export function userService({ store, bus, now, log }: ServiceDeps, auth: Auth, authMode: AuthMode, sessions: SessionOptions) {
  const bearerToken = async (user: TokenSubject): Promise<BearerToken> => ({
    access_token: await auth.tokens.issue(user, now()),
    token_type: 'bearer',
  });
  /** Who made a change, for the audit line (null in open mode, where nobody says). */
  const actorOf = (principal: Principal | undefined) => principal?.username ?? null;
  // No principal (AUTH_MODE=open, where the routes refuse before this) is never an administrator: fail closed.
  const isAdmin = (principal: Principal | undefined) => principal !== undefined && (principal.permissions & PERMISSIONS.admin) !== 0;

  async function existingUser(username: string): Promise<StoredUser> {
    const user = await store.users.get(username);
    if (!user) throw new NotFound(`User ${username} not found`);
    return user;
  }

  /** A user's own tokens with read, anyone's with admin; nobody's without a principal. */
  function mayManageTokensOf(principal: Principal | undefined, userId: number): void {
    if (isAdmin(principal)) return;
    if (principal && principal.user_id === userId && (principal.permissions & PERMISSIONS.read) !== 0) return;
    throw forbidden();
  }

  const tokenView = (row: StoredDeviceToken) => {
    const lastUsed = Math.max(row.last_used_at ?? -Infinity, auth.uses.pendingFor(row.token_id) ?? -Infinity);
    return {
      token_id: row.token_id,
      name: row.name,
      created_at: iso(row.created_at),
      expires_at: iso(row.expires_at),
      last_used_at: Number.isFinite(lastUsed) ? iso(lastUsed) : null,
      prototype_ids: row.prototype_ids,
    };
  };

  return {
    /**
     * The password login: throttled per username and per address, the same time spent for an
     * unknown username as for a wrong password, a token for the right one.
     */
    async login(username: string, password: string, address: string): Promise<BearerToken> {
      const admittedAt = now();
      const wait = auth.throttle.admit(username, address, admittedAt);
      if (wait > 0) throw new TooManyAttempts('Too many failed logins, try again later', wait);
      const user = await store.users.get(username);
      // An unknown username is checked against a dummy hash: it takes as long as a wrong password.
      const ok = await verifyPassword(user?.password_hash ?? DUMMY_HASH, password);
      if (!user || !ok) throw new Unauthenticated('Incorrect username or password');
      auth.throttle.succeeded(username, address, admittedAt);
      return bearerToken(user);
    },

    /**
     * Creates a user with read and modify and returns a token for it; with AUTH_MODE=enforced the
     * store's very first user gets every permission. `onlyIfFirst`: the request came in without a
     * token while no user existed, so it may only make the first one.
     */
    async create(username: string, password: string, onlyIfFirst: boolean, principal?: Principal): Promise<BearerToken> {
      const user = await store.users.create({
        username,
        password_hash: await hashPassword(password),
        permissions: NEW_USER_PERMISSIONS,
        // In open mode anyone may get here, so the administrator bit is never handed out: a token
        // made now would otherwise still administer users after the switch to enforced.
        firstUserPermissions: authMode === 'enforced' ? ALL_PERMISSIONS : NEW_USER_PERMISSIONS,
        onlyIfFirst,
        created_at: now(),
      });
      if (!user) throw onlyIfFirst ? notAuthenticated() : new Conflict(`Username ${username} is already taken`);
      audit(log, now, actorOf(principal), 'user created', { username, permissions: user.permissions });
      return bearerToken(user);
    },

    /** Ends the tokens the user obtained with a password; device tokens stay valid. Its session streams end too. */
    async logout(principal: Principal): Promise<void> {
      const sessionGeneration = await store.users.revokeSessions(principal.user_id);
      if (sessionGeneration === undefined) return;
      bus.publish('tokensRevoked', { userId: principal.user_id, sessionGeneration });
      audit(log, now, principal.username, 'logged out', { username: principal.username });
    },

    /**
     * A new session token with a fresh lifetime, for a valid session token: never past
     * SESSION_MAX_DAYS since the password was given (the new token carries that moment on).
     */
    async refresh(principal: Principal): Promise<BearerToken> {
      if (principal.sessionGeneration === undefined || principal.loginAt === undefined) {
        throw new Unauthenticated('Only a token obtained with a password can be refreshed');
      }
      const at = now();
      const until = principal.loginAt + sessions.sessionMaxDays * DAY_MS;
      const ttlMs = Math.min(sessions.tokenTtlMs, until - at);
      if (ttlMs < 1000) throw new Unauthenticated('The session has lasted SESSION_MAX_DAYS: log in again');
      const user = await store.users.get(principal.username);
      if (!user) throw notAuthenticated();
      const token = await auth.tokens.issue(user, at, ttlMs, { session: { loginAt: principal.loginAt } }, principal.permissions);
      return { access_token: token, token_type: 'bearer' };
    },

    async list(): Promise<UserView[]> {
      return (await store.users.list()).map(userView);
    },

    /** Creates a user with the permissions given (docs/api.md §6.1). 409 when the username is taken. */
    async add(
      principal: Principal | undefined,
      body: { username: string; password: string; permissions: number | string[] },
    ): Promise<UserView> {
      const permissions = permissionBits(body.permissions);
      const user = await store.users.create({
        username: body.username,
        password_hash: await hashPassword(body.password),
        permissions,
        created_at: now(),
      });
      if (!user) throw new Conflict(`Username ${body.username} is already taken`);
      audit(log, now, actorOf(principal), 'user created', { username: user.username, permissions });
      return userView(user);
    },

    /**
     * Changes a user's permissions and/or password. Taking admin from the last administrator is a
     * 409. A new password ends the tokens obtained with the old one (device tokens stay).
     */
    async change(principal: Principal | undefined, username: string, body: { permissions?: number | string[]; password?: string }) {
      const permissions = body.permissions === undefined ? undefined : permissionBits(body.permissions);
      const password_hash = body.password === undefined ? undefined : await hashPassword(body.password);
      const result = await store.users.update(username, { permissions, password_hash });
      if (result === 'missing') throw new NotFound(`User ${username} not found`);
      if (result === 'last_admin') throw new Conflict(`${username} is the last administrator: make another user an administrator first`);
      if (password_hash !== undefined)
        bus.publish('tokensRevoked', { userId: result.user_id, sessionGeneration: result.session_generation });
      if (permissions !== undefined) audit(log, now, actorOf(principal), 'permissions changed', { username, permissions });
      if (password_hash !== undefined) audit(log, now, actorOf(principal), 'password changed', { username });
      return userView(result);
    },

    /** Removes a user and its tokens; the last administrator cannot be removed (409). */
    async remove(principal: Principal | undefined, username: string): Promise<void> {
      const user = await existingUser(username);
      const result = await store.users.removeUnlessLastAdmin(username);
      if (result === 'missing') throw new NotFound(`User ${username} not found`);
      if (result === 'last_admin') throw new Conflict(`${username} is the last administrator: make another user an administrator first`);
      bus.publish('tokensRevoked', { userId: user.user_id, generation: Number.MAX_SAFE_INTEGER });
      audit(log, now, actorOf(principal), 'user removed', { username });
    },

    /** A device token for the user (admin): shown this once. */
    async issueToken(
      principal: Principal | undefined,
      username: string,
      name: string,
      days: number,
      prototypeIds: readonly number[] | null = null,
    ) {
      const user = await existingUser(username);
      if (prototypeIds) {
        const unknown = [];
        for (const [index, id] of prototypeIds.entries()) if (!(await store.prototypes.get(id))) unknown.push({ index, id });
        if (unknown.length > 0) {
          throw new InvalidInput(
            ...unknown.map(({ index, id }) => ({
              loc: ['body', 'prototype_ids', index],
              msg: `Prototype ${id} not found`,
              type: 'value_error',
            })),
          );
        }
      }
      const { row, accessToken } = await issueDeviceToken(store, auth.tokens, user, name, days, now(), prototypeIds);
      audit(log, now, actorOf(principal), 'device token created', {
        username,
        token_id: row.token_id,
        name,
        expires_at: iso(row.expires_at),
      });
      return {
        token_id: row.token_id,
        name: row.name,
        access_token: accessToken,
        expires_at: iso(row.expires_at),
        prototype_ids: row.prototype_ids,
      };
    },

    /** The user's device tokens, without their secret: the user's own with read, anyone's with admin. */
    async listTokens(principal: Principal | undefined, username: string) {
      const user = await store.users.get(username);
      // Whether a user exists is for administrators to learn.
      if (!user) {
        if (!isAdmin(principal)) throw forbidden();
        throw new NotFound(`User ${username} not found`);
      }
      mayManageTokensOf(principal, user.user_id);
      return (await store.deviceTokens.listByUser(user.user_id)).map(tokenView);
    },

    /** Revokes one device token: one's own with read, anyone's with admin. Its event streams end. */
    async revokeToken(principal: Principal | undefined, tokenId: number): Promise<void> {
      const token = await store.deviceTokens.get(tokenId);
      if (!token) throw new NotFound(`Token ${tokenId} not found`);
      mayManageTokensOf(principal, token.user_id);
      if (!(await store.deviceTokens.remove(tokenId))) throw new NotFound(`Token ${tokenId} not found`);
      auth.uses.forget(tokenId);
      bus.publish('tokensRevoked', { userId: token.user_id, tokenId });
      audit(log, now, actorOf(principal), 'device token revoked', { token_id: tokenId, name: token.name });
    },
  };
}

export type UserService = ReturnType<typeof userService>;
