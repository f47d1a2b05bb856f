import { notAuthenticated } from '../auth/authenticate.js';
import type { Auth } from '../auth/index.js';
import { dummyHash, hashPassword, verifyPassword } from '../auth/passwords.js';
import { ALL_PERMISSIONS, NEW_USER_PERMISSIONS } from '../auth/permissions.js';
import type { TokenSubject } from '../auth/tokens.js';
import type { AuthMode } from '../config.js';
import type { ServiceDeps } from './deps.js';
import { Conflict, TooManyAttempts, Unauthenticated } from './errors.js';

export interface BearerToken {
  access_token: string;
  token_type: 'bearer';
}

export function userService({ store, bus, now }: ServiceDeps, auth: Auth, authMode: AuthMode) {
  const bearerToken = async (user: TokenSubject): Promise<BearerToken> => ({
    access_token: await auth.tokens.issue(user, now()),
    token_type: 'bearer',
  });

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
      const ok = await verifyPassword(user?.password_hash ?? (await dummyHash()), password);
      if (!user || !ok) throw new Unauthenticated('Incorrect username or password');
      auth.throttle.succeeded(username, address, admittedAt);
      return bearerToken(user);
    },

    /**
     * Creates a user with read and modify and returns a token for it; with AUTH_MODE=enforced the
     * store's very first user gets every permission. `onlyIfFirst`: the request came in without a
     * token while no user existed, so it may only make the first one.
     */
    async create(username: string, password: string, onlyIfFirst: boolean): Promise<BearerToken> {
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
      return bearerToken(user);
    },

    /** Revokes every token issued to the user up to now; its event streams are ended (events/streams.ts). */
    async logout(userId: number): Promise<void> {
      const generation = await store.users.revokeTokens(userId, now());
      if (generation !== undefined) bus.publish('tokensRevoked', { userId, generation });
    },
  };
}
