import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, StoredUser, UserTable } from '../database.js';
import type { Dialect } from '../dialect.js';

export interface NewUser {
  username: string;
  password_hash: string;
  permissions: number;
  created_at: number;
  /** What the user gets instead of `permissions` when it is the store's very first user. */
  firstUserPermissions?: number;
  /** Create the user only if the store has no user yet (the bootstrap of AUTH_MODE=enforced). */
  onlyIfFirst?: boolean;
}

const toUser = (row: Selectable<UserTable>): StoredUser => ({
  ...row,
  user_id: Number(row.user_id),
  permissions: Number(row.permissions),
  token_generation: Number(row.token_generation),
  session_generation: Number(row.session_generation),
});

/** Why a guarded change of a user was not made. */
export type UserChangeRefusal = 'missing' | 'last_admin';

export interface UserChange {
  permissions?: number;
  /** A new password: the tokens obtained with the old one end (the session generation moves on). */
  password_hash?: string;
}

export function userRepository(db: Kysely<Database>, dialect: Dialect, adminBit = 8) {
  /**
   * True unless the change would leave the store without an administrator: the user is not one,
   * stays one, or another user is one. Part of the one statement that makes the change, under
   * the table lock, so two administrators removed at the same moment cannot both go.
   */
  const keepsAnAdmin = (username: string, staysAdmin: boolean) =>
    sql<boolean>`(${staysAdmin ? sql`true` : sql`false`} or (users.permissions & ${adminBit}) = 0
      or exists (select 1 from users others where others.username <> ${username} and (others.permissions & ${adminBit}) <> 0))`;

  /** Why nothing was changed for `username`. */
  const refusal = async (executor: Kysely<Database>, username: string): Promise<UserChangeRefusal> =>
    (await executor.selectFrom('users').select('user_id').where('username', '=', username).executeTakeFirst()) ? 'last_admin' : 'missing';

  /**
   * One statement decides "first user or not" and inserts, so two users created at the same moment
   * cannot both become the first, with the table locked against other writers around it
   * (`Dialect.lockingTable`).
   */
  async function insert(executor: Kysely<Database>, user: NewUser): Promise<StoredUser | undefined> {
    const anyUser = sql`exists (select 1 from users)`;
    const { rows } = await sql<Selectable<UserTable>>`
      insert into users (username, password_hash, permissions, created_at)
      select cast(${user.username} as text), cast(${user.password_hash} as text),
        case when ${anyUser} then cast(${user.permissions} as integer)
             else cast(${user.firstUserPermissions ?? user.permissions} as integer) end,
        cast(${dialect.time(user.created_at)} as ${dialect.timeType})
      where ${user.onlyIfFirst ? sql`not ${anyUser}` : sql`true`}
      on conflict (username) do nothing
      returning *`.execute(executor);
    return rows[0] && toUser(rows[0]);
  }

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

    /** Creates the user; undefined when the username is taken (or, with `onlyIfFirst`, a user exists). */
    create(user: NewUser): Promise<StoredUser | undefined> {
      return dialect.lockingTable(db, 'users', (locked) => insert(locked, user));
    },

    /**
     * Revokes every token issued to the user so far: its generation moves on. The new generation
     * (tokens of an older one are revoked), or undefined when there is no such user.
     */
    async revokeTokens(userId: number, at: number): Promise<number | undefined> {
      const row = await db
        .updateTable('users')
        .set((eb) => ({ token_generation: eb('token_generation', '+', 1), tokens_valid_after: dialect.time(at) }))
        .where('user_id', '=', userId)
        .returning('token_generation')
        .executeTakeFirst();
      return row && Number(row.token_generation);
    },

    /** The token generation and permissions of each of these users that exists. */
    async tokenStates(
      userIds: readonly number[],
    ): Promise<Map<number, { generation: number; sessionGeneration: number; permissions: number }>> {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('users')
        .select(['user_id', 'token_generation', 'session_generation', 'permissions'])
        .where('user_id', 'in', [...userIds])
        .execute();
      return new Map(
        rows.map((r) => [
          Number(r.user_id),
          { generation: Number(r.token_generation), sessionGeneration: Number(r.session_generation), permissions: Number(r.permissions) },
        ]),
      );
    },

    /**
     * Changes the user's permissions and/or password, unless that would take the administrator
     * permission from the last user who has it.
     */
    update(username: string, change: UserChange): Promise<StoredUser | UserChangeRefusal> {
      return dialect.lockingTable(db, 'users', async (locked) => {
        const staysAdmin = change.permissions === undefined || (change.permissions & adminBit) !== 0;
        const row = await locked
          .updateTable('users')
          .set((eb) => ({
            ...(change.permissions !== undefined && { permissions: change.permissions }),
            ...(change.password_hash !== undefined && {
              password_hash: change.password_hash,
              session_generation: eb('session_generation', '+', 1),
            }),
            username: eb.ref('username'),
          }))
          .where('username', '=', username)
          .where(keepsAnAdmin(username, staysAdmin))
          .returningAll()
          .executeTakeFirst();
        return row ? toUser(row) : refusal(locked, username);
      });
    },

    /** Removes the user unless it is the last administrator; its device tokens go with it. */
    removeUnlessLastAdmin(username: string): Promise<true | UserChangeRefusal> {
      return dialect.lockingTable(db, 'users', async (locked) => {
        const result = await locked
          .deleteFrom('users')
          .where('username', '=', username)
          .where(keepsAnAdmin(username, false))
          .executeTakeFirst();
        return Number(result.numDeletedRows) > 0 ? true : refusal(locked, username);
      });
    },

    /**
     * Ends the tokens the user obtained with a password so far (a logout): the session generation
     * moves on; device tokens stay valid. The new generation, or undefined when there is no such user.
     */
    async revokeSessions(userId: number): Promise<number | undefined> {
      const row = await db
        .updateTable('users')
        .set((eb) => ({ session_generation: eb('session_generation', '+', 1) }))
        .where('user_id', '=', userId)
        .returning('session_generation')
        .executeTakeFirst();
      return row && Number(row.session_generation);
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
