import { sql } from 'kysely';
import type { Store } from './index.js';

export interface CopyProgress {
  (table: string, copied: number, total: number): void;
}

const TABLES = ['prototypes', 'sensors', 'actuators', 'users', 'settings', 'pictures', 'measurements'] as const;
type Table = (typeof TABLES)[number];

const KEYS: Record<Table, string> = {
  prototypes: 'prototype_id',
  sensors: 'sensor_id',
  actuators: 'actuator_id',
  users: 'user_id',
  settings: 'key',
  pictures: 'picture_id',
  measurements: 'measurement_id',
};
const TIMES: Partial<Record<Table, string[]>> = {
  actuators: ['last_activated'],
  users: ['created_at', 'tokens_valid_after'],
  pictures: ['updated_at'],
  measurements: ['timestamp'],
};
const BOOLS: Partial<Record<Table, string[]>> = { actuators: ['enabled'] };
/** Tables whose ids the store assigns: the target's sequences must continue after the copied ids. */
const IDENTITIES: Partial<Record<Table, string>> = { sensors: 'sensor_id', actuators: 'actuator_id', users: 'user_id', measurements: 'measurement_id' };

const BATCH = 5_000;

export async function rowCounts(store: Store): Promise<Record<Table, number>> {
  const counts = {} as Record<Table, number>;
  for (const table of TABLES) {
    const row = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(store.db);
    counts[table] = Number(row.rows[0].n);
  }
  return counts;
}

export async function clear(store: Store): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    for (const table of [...TABLES].reverse()) await trx.deleteFrom(table).execute();
  });
}

/**
 * Copies every table from one store to another (either kind), in key order and in batches, with
 * the values converted to the target's types; then sets the target's id sequences past the copied
 * ids. The target must be migrated and empty.
 */
export async function copyStore(from: Store, to: Store, progress: CopyProgress): Promise<Record<Table, number>> {
  const totals = await rowCounts(from);
  for (const table of TABLES) {
    const key = KEYS[table];
    let copied = 0;
    let after: unknown;
    for (;;) {
      let query = from.db.selectFrom(table as never).selectAll().orderBy(key as never).limit(BATCH);
      if (after !== undefined) query = query.where(key as never, '>', after as never);
      const rows = (await query.execute()) as Record<string, unknown>[];
      if (rows.length === 0) break;
      const converted = rows.map((row) => {
        const out = { ...row };
        for (const column of TIMES[table] ?? []) if (out[column] !== null) out[column] = to.dialect.time(Number(out[column]));
        for (const column of BOOLS[table] ?? []) out[column] = to.dialect.bool(Boolean(out[column]));
        if (table === 'pictures') out.bytes = Buffer.from(out.bytes as Uint8Array);
        return out;
      });
      await to.db.insertInto(table as never).values(converted as never).execute();
      copied += rows.length;
      after = rows[rows.length - 1][key];
      progress(table, copied, totals[table]);
    }
    if (copied === 0) progress(table, 0, 0);
    const identity = IDENTITIES[table];
    if (identity) await to.dialect.continueIdentity(to.db, table, identity);
  }
  return totals;
}
