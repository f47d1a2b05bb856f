import { type Note, type NoteBody, type NotePatch, noteView, type StoredNote } from '../domain/note.js';
import { InvalidInput, NotFound, type ValidationIssue } from '../core/errors.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { windowOf } from '../core/window.js';
import { recordTime } from './record-time.js';
import type { NoteListQuery } from './schemas.js';

const noteNotFound = (id: number) => `Note ${id} not found`;

/** A note's text must say something: not blank. */
function checkText(text: string | undefined, issues: ValidationIssue[]): void {
  if (text !== undefined && text.trim() === '') issues.push({ loc: ['body', 'text'], msg: 'The text is blank', type: 'string_blank' });
}

/** The tags as kept: spaces around each dropped, a repeated tag once; a tag left blank is refused. */
function normalTags(tags: readonly string[], issues: ValidationIssue[]): string[] {
  const kept: string[] = [];
  tags.forEach((raw, index) => {
    const tag = raw.trim();
    if (tag === '') issues.push({ loc: ['body', 'tags', index], msg: 'A tag is blank', type: 'string_blank' });
    else if (!kept.includes(tag)) kept.push(tag);
  });
  return kept;
}

/**
 * The notes of the prototypes' journals (docs/api.md §15): written, changed and deleted in one
 * transaction each, then published (`note`). Any user who may modify may change or delete any
 * note; its author stays the one who wrote it.
 */
export function noteService({ store, bus, now }: ServiceDeps) {
  return {
    async create(prototypeId: number, body: NoteBody, author: string | null): Promise<Note> {
      const issues: ValidationIssue[] = [];
      checkText(body.text, issues);
      const tags = normalTags(body.tags ?? [], issues);
      if (issues.length > 0) throw new InvalidInput(...issues);
      const at = recordTime(body.at, now(), ['body', 'at']);
      const note = await store.transaction(async (tx) => {
        if (!(await tx.prototypes.exists(prototypeId))) throw new NotFound(`Prototype ${prototypeId} not found`);
        return tx.notes.create({ prototype_id: prototypeId, at, text: body.text, tags, author });
      });
      const answer = noteView(note);
      bus.publish('note', { action: 'created', note: answer });
      return answer;
    },

    async update(noteId: number, patch: NotePatch): Promise<Note> {
      const issues: ValidationIssue[] = [];
      checkText(patch.text, issues);
      const tags = patch.tags === undefined ? undefined : normalTags(patch.tags, issues);
      if (issues.length > 0) throw new InvalidInput(...issues);
      const at = patch.at === undefined ? undefined : recordTime(patch.at, now(), ['body', 'at']);
      const note = await store.transaction(async (tx) => {
        const current = await tx.notes.getLocked(noteId);
        if (!current) throw new NotFound(noteNotFound(noteId));
        const merged: StoredNote = { ...current, text: patch.text ?? current.text, at: at ?? current.at, tags: tags ?? current.tags };
        return tx.notes.update(merged);
      });
      const answer = noteView(note);
      bus.publish('note', { action: 'updated', note: answer });
      return answer;
    },

    async remove(noteId: number): Promise<void> {
      const removed = await store.notes.remove(noteId);
      if (!removed) throw new NotFound(noteNotFound(noteId));
      bus.publish('note', { action: 'deleted', noteId, prototypeId: removed.prototype_id });
    },

    async get(noteId: number): Promise<Note> {
      const note = await store.notes.get(noteId);
      if (!note) throw new NotFound(noteNotFound(noteId));
      return noteView(note);
    },

    /** Notes newest first (ties: the later written first), after the note `before` names. */
    async list(query: NoteListQuery): Promise<Note[]> {
      const window = windowOf({ start_time: query.start_time, end_time: query.end_time }, now());
      let before: { at: number; id: number } | undefined;
      if (query.before !== undefined) {
        const edge = await store.notes.get(query.before);
        if (!edge) {
          throw new InvalidInput({
            loc: ['query', 'before'],
            msg: `Note ${query.before} does not exist: no page after it`,
            type: 'value_error',
          });
        }
        before = { at: edge.at, id: edge.note_id };
      }
      const notes = await store.notes.list(
        { prototypeId: query.prototype_id, tag: query.tag },
        { window, before, limit: query.limit ?? 100 },
      );
      return notes.map(noteView);
    },
  };
}

export type NoteService = ReturnType<typeof noteService>;
