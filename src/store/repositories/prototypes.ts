import type { Kysely } from 'kysely';
import type { PrototypeBase, StoredPrototype } from '../../domain/prototype.js';
import type { Database } from '../database.js';
import type { Dialect } from '../dialect.js';

export function prototypeRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    list(): Promise<StoredPrototype[]> {
      return db.selectFrom('prototypes').selectAll().orderBy('prototype_id').execute();
    },

    get(prototypeId: number): Promise<StoredPrototype | undefined> {
      return db.selectFrom('prototypes').selectAll().where('prototype_id', '=', prototypeId).executeTakeFirst();
    },

    async exists(prototypeId: number): Promise<boolean> {
      const row = await db.selectFrom('prototypes').select('prototype_id').where('prototype_id', '=', prototypeId).executeTakeFirst();
      return row !== undefined;
    },

    /** Creates the prototype; undefined when its id is taken. */
    async create(prototype: PrototypeBase): Promise<StoredPrototype | undefined> {
      return db
        .insertInto('prototypes')
        .values({ prototype_id: prototype.prototype_id, prototype_name: prototype.prototype_name })
        .onConflict((oc) => oc.column('prototype_id').doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    /** Renames the prototype; undefined when it does not exist. */
    rename(prototypeId: number, name: string): Promise<StoredPrototype | undefined> {
      return db
        .updateTable('prototypes')
        .set({ prototype_name: name })
        .where('prototype_id', '=', prototypeId)
        .returningAll()
        .executeTakeFirst();
    },

    /** Sets (or with null, ends) the prototype's pause; undefined when it does not exist. */
    setPause(prototypeId: number, until: number | null): Promise<StoredPrototype | undefined> {
      return db
        .updateTable('prototypes')
        .set({ paused_until: until === null ? null : dialect.time(until) })
        .where('prototype_id', '=', prototypeId)
        .returningAll()
        .executeTakeFirst();
    },
  };
}
