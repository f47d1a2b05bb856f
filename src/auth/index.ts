import type { Config } from '../config/index.js';
import type { App } from '../http/app-type.js';
import type { Store } from '../store/index.js';
import { systemTimers, type Timers } from '../core/timers.js';
import { authenticator } from './authenticate.js';
import { loginThrottle, type ThrottleLimits } from './login-throttle.js';
import { registerGuard } from './guard.js';
import { tokenUseNotes, USE_RESOLUTION_MS } from './token-use.js';
import { tokenSecret, tokenService } from './tokens.js';

/** Everything the routes need for users and tokens, built once per process. */
export async function createAuth(config: Config, store: Store, now: () => number, limits?: ThrottleLimits) {
  const tokens = tokenService(await tokenSecret(config.tokenSecret, store.settings), config.tokenTtlMinutes * 60_000);
  const uses = tokenUseNotes();
  return {
    tokens,
    uses,
    authenticate: authenticator(tokens, store, now, uses),
    throttle: loginThrottle(limits),
    /** Writes the device token uses noted so far (also at close). */
    flushUses: () => store.deviceTokens.noteUses(uses.take()),
  };
}

export type Auth = Awaited<ReturnType<typeof createAuth>>;

export interface AuthDeps {
  config: Pick<Config, 'authMode'>;
  auth: Pick<Auth, 'authenticate' | 'flushUses'>;
  store: Store;
  log: { warn(details: object, message: string): void };
  timers?: Timers;
}

/**
 * In enforced mode, the guard that checks every route's token and permission (registered before
 * the routes); in both modes, the batches that write when device tokens were last used.
 */
export async function register(app: App, { config, auth, store, log, timers = systemTimers }: AuthDeps): Promise<void> {
  if (config.authMode === 'enforced') registerGuard(app, auth.authenticate, store);
  let timer: unknown;
  let stopped = false;
  const flush = () =>
    auth.flushUses().catch((error: unknown) => log.warn({ err: error }, 'could not record when device tokens were last used'));
  const schedule = () => {
    timer = timers.set(() => {
      void flush().finally(() => {
        if (!stopped) schedule();
      });
    }, USE_RESOLUTION_MS / 2);
  };
  schedule();
  app.addHook('onClose', async () => {
    stopped = true;
    timers.clear(timer);
    await flush();
  });
}
