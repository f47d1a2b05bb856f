import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes } from '../dialect.js';

/**
 * Device tokens and sessions (docs/api.md §6.1). A device token is a row here, so that one alone can be
 * listed and revoked (the token carries its `token_id`); its secret is never stored. A logout
 * moves the user's `session_generation` on, which ends the tokens obtained with a password and
 * leaves the device tokens alone; `token_generation` still revokes every token (the users
 * command line's `revoke`).
 */
export function deviceTokensMigration({ time, identity }: SchemaTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('users')
        .addColumn('session_generation', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('device_tokens')
        .addColumn('token_id', 'integer', identity)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('last_used_at', time)
        .execute();
      await db.schema.createIndex('device_tokens_by_user').on('device_tokens').columns(['user_id', 'token_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists device_tokens`.execute(db);
      await sql`alter table users drop column session_generation`.execute(db);
    },
  };
}
