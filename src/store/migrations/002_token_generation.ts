import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Logout revokes tokens by generation rather than by time: a token carries the generation its
 * user had when it was issued, and logout moves the generation on. That is exact whatever the
 * clocks say — two events within one millisecond, or several processes whose clocks disagree.
 */
export function tokenGenerationMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('users')
        .addColumn('token_generation', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`alter table users drop column token_generation`.execute(db);
    },
  };
}
