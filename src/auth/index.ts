import type { Config } from '../config.js';
import type { Store } from '../store/index.js';
import { authenticator } from './authenticate.js';
import { loginThrottle, type ThrottleLimits } from './login-throttle.js';
import { dummyHash } from './passwords.js';
import { tokenSecret, tokenService } from './tokens.js';

/** Everything the routes need for users and tokens, built once per process. */
export async function createAuth(config: Config, store: Store, now: () => number, limits?: ThrottleLimits) {
  // Made now, not on the first unknown username, which would otherwise take twice as long.
  await dummyHash();
  const tokens = tokenService(await tokenSecret(config.tokenSecret, store.settings), config.tokenTtlMinutes * 60_000);
  return {
    tokens,
    authenticate: authenticator(tokens, store, now),
    throttle: loginThrottle(limits),
  };
}

export type Auth = Awaited<ReturnType<typeof createAuth>>;
