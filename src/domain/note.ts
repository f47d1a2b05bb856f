import { type Static, Type } from '@sinclair/typebox';
import { DateTimeInput, DateTimeOutput, Id } from './schema-common.js';

/** A note (docs/api.md §15): 1 to 2000 characters, up to 8 tags of 1 to 32. */
export const NOTE_TEXT_MAX = 2000;
export const MAX_NOTE_TAGS = 8;
export const NOTE_TAG_MAX = 32;

const Text = Type.String({ minLength: 1, maxLength: NOTE_TEXT_MAX, description: `1 to ${NOTE_TEXT_MAX} characters, not all blank.` });
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: NOTE_TAG_MAX }), {
  maxItems: MAX_NOTE_TAGS,
  description: `Up to ${MAX_NOTE_TAGS} tags of 1 to ${NOTE_TAG_MAX} characters; spaces around a tag are dropped, and a repeated tag is kept once.`,
});
const At = DateTimeInput('What the note is about happened then; default now. At most 5 minutes in the future.');

export const NoteBody = Type.Object({ text: Text, at: Type.Optional(At), tags: Type.Optional(Tags) }, { title: 'NoteBody' });
export type NoteBody = Static<typeof NoteBody>;

export const NotePatch = Type.Object(
  { text: Type.Optional(Text), at: Type.Optional(At), tags: Type.Optional(Tags) },
  { title: 'NotePatch', description: 'Any of text, at and tags; the others keep their value. tags replaces the whole list.' },
);
export type NotePatch = Static<typeof NotePatch>;

export const Note = Type.Object(
  {
    note_id: Id('Assigned by the service.'),
    prototype_id: Id(),
    at: DateTimeOutput(),
    text: Type.String(),
    tags: Type.Array(Type.String()),
    author: Type.Union([Type.String(), Type.Null()], { description: 'The user who wrote it; null in open mode.' }),
  },
  { title: 'Note' },
);
export type Note = Static<typeof Note>;

/** A note as the store keeps it: `at` in epoch ms. */
export type StoredNote = Omit<Note, 'at'> & { at: number };

export const noteView = (stored: StoredNote): Note => ({ ...stored, at: new Date(stored.at).toISOString() });

export const NoteIdParams = Type.Object({ note_id: Id() });
