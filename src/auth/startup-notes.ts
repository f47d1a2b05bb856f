import type { Logger } from '../core/logger.js';
import type { Config } from '../config/index.js';
import type { Store } from '../store/index.js';
import { PERMISSIONS } from './permissions.js';

const MAKE_ADMIN = 'npm run users -- add NAME --permissions read,modify,admin';

/**
 * What an operator has to know about access when the service starts: that open mode is open to
 * everyone who reaches the port, and how the first administrator is made.
 */
export async function logAccessNotes(log: Logger, config: Config, store: Store): Promise<void> {
  const users = await store.users.list();
  const hasAdmin = users.some((user) => (user.permissions & PERMISSIONS.admin) !== 0);
  if (config.authMode === 'open') {
    log.warn(
      { auth: 'open', host: config.host },
      'AUTH_MODE=open: anyone who reaches this port can change settings, create users and replace all data; ' +
        'bind HOST=127.0.0.1 or use AUTH_MODE=enforced on a shared network. /users/new/ grants no admin permission ' +
        `in this mode: make administrators with \`${MAKE_ADMIN}\``,
    );
    return;
  }
  if (users.length === 0) {
    log.info({ auth: 'enforced' }, `no user yet: the first POST /users/new/ creates the administrator, or run \`${MAKE_ADMIN}\``);
  } else if (!hasAdmin) {
    log.warn({ auth: 'enforced' }, `no administrator: no one can create users over HTTP; make one with \`${MAKE_ADMIN}\``);
  }
}
