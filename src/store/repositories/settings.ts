import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/** Small named values the service keeps for itself (the generated token secret, the defaults marker). */
export function settingRepository(db: Kysely<Database>) {
  return {
    async get(key: string): Promise<string | undefined> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
      return row?.value;
    },

    /** Stores `value` under `key`, replacing what was there. */
    async set(key: string, value: string): Promise<void> {
      await db
        .insertInto('settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
    },

    /** Stores `value` unless `key` is already set; true when this call set it. Safe under concurrent callers. */
    async setIfAbsent(key: string, value: string): Promise<boolean> {
      const result = await db
        .insertInto('settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
  };
}

export type SettingRepository = ReturnType<typeof settingRepository>;
