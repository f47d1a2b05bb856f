import type { Kysely, Selectable } from 'kysely';
import type { RecordPage } from '../../domain/journal-page.js';
import type { StoredNote } from '../../domain/note.js';
import type { Database, NoteTable } from '../database.js';
import type { Dialect } from '../dialect.js';
import { paged } from './record-page.js';

export interface NoteFilter {
  /** Only this prototype's notes. */
  prototypeId?: number;
  /** Only notes carrying this tag. */
  tag?: string;
}

/** The notes of the prototypes' journals (docs/api.md §15), each with its tags in order. */
export function noteRepository(db: Kysely<Database>, dialect: Dialect) {
  /** The tags of these notes, each list in its order. */
  async function tagsOf(noteIds: readonly number[]): Promise<Map<number, string[]>> {
    const tags = new Map<number, string[]>(noteIds.map((id) => [id, []]));
    if (noteIds.length === 0) return tags;
    const rows = await db
      .selectFrom('note_tags')
      .select(['note_id', 'tag'])
      .where('note_id', 'in', [...noteIds])
      .orderBy('note_id')
      .orderBy('position')
      .execute();
    for (const row of rows) tags.get(row.note_id)?.push(row.tag);
    return tags;
  }

  async function withTags(rows: Selectable<NoteTable>[]): Promise<StoredNote[]> {
    const tags = await tagsOf(rows.map((r) => r.note_id));
    return rows.map((row) => ({ ...row, tags: tags.get(row.note_id) ?? [] }));
  }

  async function writeTags(noteId: number, tags: readonly string[]): Promise<void> {
    await db.deleteFrom('note_tags').where('note_id', '=', noteId).execute();
    if (tags.length > 0) {
      await db
        .insertInto('note_tags')
        .values(tags.map((tag, position) => ({ note_id: noteId, position, tag })))
        .execute();
    }
  }

  return {
    /** Inside a transaction, writes the note and its tags. */
    async create(note: Omit<StoredNote, 'note_id'>): Promise<StoredNote> {
      const row = await db
        .insertInto('notes')
        .values({ prototype_id: note.prototype_id, at: dialect.time(note.at), text: note.text, author: note.author })
        .returningAll()
        .executeTakeFirstOrThrow();
      await writeTags(row.note_id, note.tags);
      return { ...row, tags: [...note.tags] };
    },

    async get(noteId: number): Promise<StoredNote | undefined> {
      const row = await db.selectFrom('notes').selectAll().where('note_id', '=', noteId).executeTakeFirst();
      return row && (await withTags([row]))[0];
    },

    /** Inside a transaction, the note with its row locked until the end (a concurrent edit waits); undefined when there is none. */
    async getLocked(noteId: number): Promise<StoredNote | undefined> {
      const row = await dialect.forUpdate(db.selectFrom('notes').selectAll().where('note_id', '=', noteId)).executeTakeFirst();
      return row && (await withTags([row]))[0];
    },

    /** Inside a transaction, writes the note's text, time and tags. */
    async update(note: StoredNote): Promise<StoredNote> {
      const row = await db
        .updateTable('notes')
        .set({ at: dialect.time(note.at), text: note.text })
        .where('note_id', '=', note.note_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await writeTags(note.note_id, note.tags);
      return { ...row, tags: [...note.tags] };
    },

    /** Deletes the note (its tags go with it); answers it, or undefined when there was none. */
    async remove(noteId: number): Promise<Pick<StoredNote, 'note_id' | 'prototype_id'> | undefined> {
      return db.deleteFrom('notes').where('note_id', '=', noteId).returning(['note_id', 'prototype_id']).executeTakeFirst();
    },

    /** A page of the notes the filter names, newest first. */
    async list(filter: NoteFilter, page: RecordPage): Promise<StoredNote[]> {
      let query = db.selectFrom('notes').selectAll('notes');
      if (filter.prototypeId !== undefined) query = query.where('notes.prototype_id', '=', filter.prototypeId);
      const { tag } = filter;
      if (tag !== undefined) {
        query = query.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('note_tags')
              .select('note_tags.note_id')
              .whereRef('note_tags.note_id', '=', 'notes.note_id')
              .where('note_tags.tag', '=', tag),
          ),
        );
      }
      return withTags(await paged(query, { at: 'notes.at', id: 'notes.note_id' }, page, dialect).execute());
    },
  };
}

export type NoteRepository = ReturnType<typeof noteRepository>;
