import type { TokenService, TokenSubject } from '../auth/tokens.js';
import type { Store, StoredDeviceToken } from '../store/index.js';

const DAY_MS = 24 * 3600_000;

/**
 * A device token for the user (docs/api.md §6.1), for the HTTP API and the users command line alike:
 * a row that lists and revokes it, and the signed token that names the row. The token carries
 * the user's permissions at this moment; it is returned here once and never stored.
 */
export async function issueDeviceToken(
  store: Pick<Store, 'deviceTokens'>,
  tokens: Pick<TokenService, 'issue'>,
  user: TokenSubject,
  name: string,
  days: number,
  now: number,
  prototypeIds: readonly number[] | null = null,
): Promise<{ row: StoredDeviceToken; accessToken: string }> {
  const ttlMs = Math.round(days * DAY_MS);
  // The row's expiry is the token's, which counts whole seconds.
  const expiresAt = Math.floor((now + ttlMs) / 1000) * 1000;
  const row = await store.deviceTokens.create({
    user_id: user.user_id,
    name,
    created_at: now,
    expires_at: expiresAt,
    prototype_ids: prototypeIds,
  });
  const accessToken = await tokens.issue(user, now, ttlMs, { device: { tokenId: row.token_id } });
  return { row, accessToken };
}
