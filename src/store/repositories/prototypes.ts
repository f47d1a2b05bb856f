import type { Kysely } from 'kysely';
import type { Prototype } from '../../schemas/prototypes.js';
import type { Database } from '../database.js';

export function prototypeRepository(db: Kysely<Database>) {
  return {
    list(): Promise<Prototype[]> {
      return db.selectFrom('prototypes').selectAll().orderBy('prototype_id').execute();
    },

    get(prototypeId: number): Promise<Prototype | undefined> {
      return db.selectFrom('prototypes').selectAll().where('prototype_id', '=', prototypeId).executeTakeFirst();
    },

    async exists(prototypeId: number): Promise<boolean> {
      const row = await db.selectFrom('prototypes').select('prototype_id').where('prototype_id', '=', prototypeId).executeTakeFirst();
      return row !== undefined;
    },

    /** Creates the prototype; undefined when its id is taken. */
    async create(prototype: Prototype): Promise<Prototype | undefined> {
      return db
        .insertInto('prototypes')
        .values({ prototype_id: prototype.prototype_id, prototype_name: prototype.prototype_name })
        .onConflict((oc) => oc.column('prototype_id').doNothing())
        .returningAll()
        .executeTakeFirst();
    },
  };
}
