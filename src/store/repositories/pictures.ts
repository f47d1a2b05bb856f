import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { Dialect } from '../dialect.js';

export interface StoredPicture {
  bytes: Buffer;
  content_type: string;
  updated_at: number;
}

/** The last uploaded picture: one row, replaced by each upload. */
export function pictureRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    async get(): Promise<StoredPicture | undefined> {
      const row = await db
        .selectFrom('pictures')
        .select(['bytes', 'content_type', 'updated_at'])
        .where('picture_id', '=', 1)
        .executeTakeFirst();
      return row && { bytes: Buffer.from(row.bytes), content_type: row.content_type, updated_at: row.updated_at };
    },

    async put(bytes: Uint8Array, contentType: string, at: number): Promise<void> {
      const values = { bytes, content_type: contentType, updated_at: dialect.time(at) };
      await db
        .insertInto('pictures')
        .values({ picture_id: 1, ...values })
        .onConflict((oc) => oc.column('picture_id').doUpdateSet(values))
        .execute();
    },
  };
}
