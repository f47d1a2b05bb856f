import type { Kysely, Selectable } from 'kysely';
import type { Database, UserTable } from './database.js';
import type { Dialect } from './dialect.js';

export interface StoredUser {
  user_id: number;
  username: string;
  password_hash: string;
  permissions: number;
  created_at: number;
  tokens_valid_after: number | null;
}

const toUser = (row: Selectable<UserTable>): StoredUser => ({ ...row });

export function userRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    async get(username: string): Promise<StoredUser | undefined> {
      const row = await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
      return row && toUser(row);
    },

    async list(): Promise<StoredUser[]> {
      return (await db.selectFrom('users').selectAll().orderBy('username').execute()).map(toUser);
    },

    async any(): Promise<boolean> {
      return (await db.selectFrom('users').select('user_id').limit(1).executeTakeFirst()) !== undefined;
    },

    /** Creates the user; undefined when the username is taken. */
    async create(user: { username: string; password_hash: string; permissions: number; created_at: number }): Promise<StoredUser | undefined> {
      const row = await db
        .insertInto('users')
        .values({ ...user, created_at: dialect.time(user.created_at) })
        .onConflict((oc) => oc.column('username').doNothing())
        .returningAll()
        .executeTakeFirst();
      return row && toUser(row);
    },

    /** Revokes every token issued up to `at`. */
    async revokeTokens(username: string, at: number): Promise<void> {
      await db.updateTable('users').set({ tokens_valid_after: dialect.time(at) }).where('username', '=', username).execute();
    },

    async setPermissions(username: string, permissions: number): Promise<boolean> {
      const result = await db.updateTable('users').set({ permissions }).where('username', '=', username).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async remove(username: string): Promise<boolean> {
      const result = await db.deleteFrom('users').where('username', '=', username).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type UserRepository = ReturnType<typeof userRepository>;
