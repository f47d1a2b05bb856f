import { describe, expect, it } from 'vitest';
import type { Note } from '../../src/domain/note.js';
import { MAX_PAYLOAD_BYTES, packPayloads, parsePayload, recordsOf } from '../../src/events/relay-codec.js';

describe('notes between instances (the relay codec)', () => {
  // The longest note: 2000 characters of four bytes each, and 8 tags of 32 — more than a notification holds.
  const note: Note = {
    note_id: 41,
    prototype_id: 3,
    at: '2026-11-22T12:00:00.000Z',
    text: '🌱'.repeat(2000),
    tags: Array.from({ length: 8 }, (_, i) => `${i}`.repeat(32)),
    author: 'ana',
  };

  it('a note written or changed travels as its id, read back by the instance that hears it', () => {
    expect(Buffer.byteLength(JSON.stringify(note))).toBeGreaterThan(MAX_PAYLOAD_BYTES);
    expect(recordsOf('note', { action: 'created', note })).toEqual([{ topic: 'noteRef', action: 'created', noteId: 41 }]);
    expect(recordsOf('note', { action: 'updated', note })).toEqual([{ topic: 'noteRef', action: 'updated', noteId: 41 }]);
    const [payload] = packPayloads('a1', recordsOf('note', { action: 'created', note }));
    expect(Buffer.byteLength(payload)).toBeLessThan(200);
    expect(parsePayload(payload)?.records).toEqual([{ topic: 'noteRef', action: 'created', noteId: 41 }]);
  });

  it('a note deleted travels whole: there is nothing left to read back', () => {
    const deleted = { action: 'deleted' as const, noteId: 41, prototypeId: 3 };
    expect(recordsOf('note', deleted)).toEqual([{ topic: 'note', change: deleted }]);
  });
});
