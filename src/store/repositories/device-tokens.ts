import type { Kysely } from 'kysely';
import type { Database, StoredDeviceToken } from '../database.js';
import type { Dialect } from '../dialect.js';

export interface NewDeviceToken {
  user_id: number;
  name: string;
  created_at: number;
  expires_at: number;
  /** The prototypes it is limited to; null or left out: every prototype. */
  prototype_ids?: readonly number[] | null;
}

type DeviceTokenRow = Omit<StoredDeviceToken, 'prototype_ids'> & { prototype_ids: string | null };

/** The stored list of prototypes; anything but an array of ids reads as none at all (fail closed: the token reaches no tank). */
function prototypeIdsOf(text: string | null): number[] | null {
  if (text === null) return null;
  try {
    const ids: unknown = JSON.parse(text);
    return Array.isArray(ids) && ids.every((id) => Number.isSafeInteger(id)) ? (ids as number[]) : [];
  } catch {
    return [];
  }
}

const toToken = (row: DeviceTokenRow): StoredDeviceToken => ({
  ...row,
  token_id: Number(row.token_id),
  user_id: Number(row.user_id),
  prototype_ids: prototypeIdsOf(row.prototype_ids),
});

/** Device tokens (docs/api.md §6.1): what lists and revokes them one by one; never their secret. */
export function deviceTokenRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    async create(token: NewDeviceToken): Promise<StoredDeviceToken> {
      const row = await db
        .insertInto('device_tokens')
        .values({
          user_id: token.user_id,
          name: token.name,
          created_at: dialect.time(token.created_at),
          expires_at: dialect.time(token.expires_at),
          last_used_at: null,
          prototype_ids: token.prototype_ids ? JSON.stringify([...new Set(token.prototype_ids)].sort((x, y) => x - y)) : null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toToken(row);
    },

    async get(tokenId: number): Promise<StoredDeviceToken | undefined> {
      const row = await db.selectFrom('device_tokens').selectAll().where('token_id', '=', tokenId).executeTakeFirst();
      return row && toToken(row);
    },

    /** The user's device tokens, oldest first. */
    async listByUser(userId: number): Promise<StoredDeviceToken[]> {
      const rows = await db.selectFrom('device_tokens').selectAll().where('user_id', '=', userId).orderBy('token_id').execute();
      return rows.map(toToken);
    },

    /** The ids among `tokenIds` that still exist (not revoked, their user not removed). */
    async existing(tokenIds: readonly number[]): Promise<Set<number>> {
      if (tokenIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('device_tokens')
        .select('token_id')
        .where('token_id', 'in', [...new Set(tokenIds)])
        .execute();
      return new Set(rows.map((r) => Number(r.token_id)));
    },

    /** Revokes the token: false when there is no such token. */
    async remove(tokenId: number): Promise<boolean> {
      const result = await db.deleteFrom('device_tokens').where('token_id', '=', tokenId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Writes the last uses noted since the previous batch; never moves a time back. */
    async noteUses(uses: ReadonlyMap<number, number>): Promise<void> {
      if (uses.size === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const [tokenId, at] of uses) {
          await trx
            .updateTable('device_tokens')
            .set({ last_used_at: dialect.time(at) })
            .where('token_id', '=', tokenId)
            .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', dialect.at(at))]))
            .execute();
        }
      });
    },
  };
}
