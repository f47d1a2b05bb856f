import { tokenSecret, tokenService } from '../../src/auth/tokens.js';
import type { Store } from '../../src/store/index.js';

/** A token for a user made directly in the store (as the command-line tool does). */
export async function tokenFor(store: Store, username: string, permissions: number): Promise<string> {
  const user = await store.users.create({ username, password_hash: 'unused', permissions, created_at: Date.now() });
  const tokens = tokenService(await tokenSecret(undefined, store.settings), 3600_000);
  return tokens.issue(user!, Date.now());
}
