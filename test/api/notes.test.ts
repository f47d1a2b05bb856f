import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { openStream } from '../helpers/sse.js';
import { dbOf, storeKinds } from '../helpers/stores.js';

/** Notes of a prototype's journal (docs/api.md §15) through HTTP, on both stores. */
const NOW = Date.UTC(2026, 10, 22, 12);
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

interface Note {
  note_id: number;
  prototype_id: number;
  at: string;
  text: string;
  tags: string[];
  author: string | null;
}

/** Every note and tag row, to tell that a refused request wrote nothing. */
async function noteRows(service: TestService) {
  const db = dbOf(service.store);
  const notes = await sql`select note_id, prototype_id, at, text, author from notes order by note_id`.execute(db);
  const tags = await sql`select note_id, position, tag from note_tags order by note_id, position`.execute(db);
  return { notes: notes.rows, tags: tags.rows };
}

describe.each(storeKinds())('notes (%s)', (kind) => {
  let service: TestService;
  let nextPrototype = 200;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
  });
  afterAll(() => service?.close());

  const newPrototype = async () => {
    const prototype_id = nextPrototype++;
    expect((await service.post('/prototypes', { prototype_id, prototype_name: `tank ${prototype_id}` })).status).toBe(200);
    return prototype_id;
  };
  const write = async (prototypeId: number, body: Record<string, unknown>): Promise<Note> => {
    const res = await service.post(`/prototypes/${prototypeId}/notes`, body);
    expect(res.status).toBe(200);
    return res.body;
  };
  const del = (path: string) => service.request('DELETE', path);
  const ids = (notes: Note[]) => notes.map((n) => n.note_id);

  it('writes a note: at defaults to now, tags trimmed and kept once, author null in open mode; reads it back', async () => {
    const prototypeId = await newPrototype();
    const res = await service.post(`/prototypes/${prototypeId}/notes`, {
      text: 'Changed the water\nEC 1.2',
      tags: [' water ', 'ec', 'water'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      note_id: expect.any(Number),
      prototype_id: prototypeId,
      at: iso(NOW),
      text: 'Changed the water\nEC 1.2',
      tags: ['water', 'ec'],
      author: null,
    });
    expect((await service.get(`/notes/${res.body.note_id}`)).body).toEqual(res.body);
    const dated = await write(prototypeId, { text: 'Seedlings in', at: '2026-11-20T08:00:00+02:00' });
    expect(dated).toMatchObject({ at: '2026-11-20T06:00:00.000Z', tags: [] });
  });

  it('changes any of text, at and tags; the others stay', async () => {
    const prototypeId = await newPrototype();
    const note = await write(prototypeId, { text: 'pH down', tags: ['ph'] });
    const retagged = await service.patch(`/notes/${note.note_id}`, { tags: ['ph', 'acid'] });
    expect(retagged.status).toBe(200);
    expect(retagged.body).toEqual({ ...note, tags: ['ph', 'acid'] });
    const moved = await service.patch(`/notes/${note.note_id}`, { text: 'pH down 0.2', at: iso(NOW - MINUTE) });
    expect(moved.body).toEqual({ ...note, text: 'pH down 0.2', at: iso(NOW - MINUTE), tags: ['ph', 'acid'] });
    const untagged = await service.patch(`/notes/${note.note_id}`, { tags: [] });
    expect(untagged.body.tags).toEqual([]);
    expect((await service.get(`/notes/${note.note_id}`)).body).toEqual(untagged.body);
  });

  it('deletes a note: 204, then 404', async () => {
    const prototypeId = await newPrototype();
    const note = await write(prototypeId, { text: 'gone soon', tags: ['x'] });
    const res = await del(`/notes/${note.note_id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await service.get(`/notes/${note.note_id}`)).status).toBe(404);
    expect((await del(`/notes/${note.note_id}`)).status).toBe(404);
    expect((await service.patch(`/notes/${note.note_id}`, { text: 'back?' })).status).toBe(404);
  });

  it('lists newest first by at (ties: the later written first), filtered by prototype, window and tag', async () => {
    const prototypeId = await newPrototype();
    const other = await newPrototype();
    const a = await write(prototypeId, { text: 'a', at: iso(NOW - 3 * MINUTE), tags: ['ph'] });
    const b = await write(prototypeId, { text: 'b', at: iso(NOW - MINUTE) });
    const c = await write(prototypeId, { text: 'c', at: iso(NOW - 2 * MINUTE), tags: ['ph', 'water'] });
    const d = await write(prototypeId, { text: 'd', at: iso(NOW - MINUTE), tags: ['water'] });
    const elsewhere = await write(other, { text: 'e', at: iso(NOW), tags: ['ph'] });
    const list = async (query: string) => {
      const res = await service.get(`/notes?${query}`);
      expect(res.status).toBe(200);
      return ids(res.body);
    };
    expect(await list(`prototype_id=${prototypeId}`)).toEqual(ids([d, b, c, a]));
    expect(await list(`prototype_id=${prototypeId}&tag=ph`)).toEqual(ids([c, a]));
    expect(await list(`tag=ph&limit=2`)).toEqual(ids([elsewhere, c]));
    expect(await list(`prototype_id=${prototypeId}&start_time=${iso(NOW - 2 * MINUTE)}&end_time=${iso(NOW - MINUTE)}`)).toEqual(ids([c]));
    expect(await list(`prototype_id=${prototypeId}&tag=PH`)).toEqual([]);
    expect(await list('prototype_id=999999')).toEqual([]);
    // Keyset paging: each page starts after the last note of the one before.
    expect(await list(`prototype_id=${prototypeId}&limit=2`)).toEqual(ids([d, b]));
    expect(await list(`prototype_id=${prototypeId}&limit=2&before=${b.note_id}`)).toEqual(ids([c, a]));
    expect(await list(`prototype_id=${prototypeId}&limit=2&before=${a.note_id}`)).toEqual([]);
  });

  it('publishes note events to the streams of its prototype (and of its sensors)', async () => {
    const prototypeId = await newPrototype();
    const sensor = await service.post('/sensors/', { ...phSensorBody, prototype_id: prototypeId });
    const ofPrototype = await openStream(`${service.url}/events?types=note&prototype_id=${prototypeId}`);
    const ofSensor = await openStream(`${service.url}/events?sensor_id=${sensor.body.sensor_id}`);
    const ofOther = await openStream(`${service.url}/events?types=note&prototype_id=0`);
    try {
      const note = await write(prototypeId, { text: 'first' });
      const changed = (await service.patch(`/notes/${note.note_id}`, { text: 'second' })).body;
      expect((await del(`/notes/${note.note_id}`)).status).toBe(204);
      for (const stream of [ofPrototype, ofSensor]) {
        await stream.next(() => stream.events.filter((e) => e.event === 'note').length >= 3);
        expect(stream.events.filter((e) => e.event === 'note').map((e) => JSON.parse(e.data))).toEqual([
          note,
          changed,
          { deleted: note.note_id, prototype_id: prototypeId },
        ]);
      }
      // A note of prototype 0 reaches the stream of prototype 0 only after all those: none of the above did.
      const mine = await write(0, { text: 'on the default tank' });
      expect(JSON.parse((await ofOther.next((e) => e.event === 'note')).data)).toEqual(mine);
      expect(ofOther.events.filter((e) => e.event === 'note')).toHaveLength(1);
      expect((await service.get('/events?types=notes')).status).toBe(422);
    } finally {
      for (const stream of [ofPrototype, ofSensor, ofOther]) stream.close();
    }
  });

  describe('bad input: 422 or 404, nothing written', () => {
    let prototypeId: number;
    let note: Note;
    beforeAll(async () => {
      prototypeId = await newPrototype();
      note = await write(prototypeId, { text: 'kept as it is', tags: ['a'] });
    });

    const cases: [string, Record<string, unknown>, (string | number)[]][] = [
      ['no text', { tags: ['x'] }, ['body', 'text']],
      ['an empty text', { text: '' }, ['body', 'text']],
      ['a blank text', { text: ' \n\t ' }, ['body', 'text']],
      ['a text over 2000 characters', { text: 'x'.repeat(2001) }, ['body', 'text']],
      ['a text that is not a string', { text: 42 }, ['body', 'text']],
      ['nine tags', { text: 't', tags: ['1', '2', '3', '4', '5', '6', '7', '8', '9'] }, ['body', 'tags']],
      ['a tag over 32 characters', { text: 't', tags: ['x'.repeat(33)] }, ['body', 'tags', 0]],
      ['an empty tag', { text: 't', tags: ['ok', ''] }, ['body', 'tags', 1]],
      ['a blank tag', { text: 't', tags: ['ok', '   '] }, ['body', 'tags', 1]],
      ['tags that are not a list', { text: 't', tags: 'ph' }, ['body', 'tags']],
      ['at more than 5 minutes ahead', { text: 't', at: iso(NOW + 5 * MINUTE + 1) }, ['body', 'at']],
      ['at that is no date-time', { text: 't', at: 'tomorrow' }, ['body', 'at']],
      ['a NUL in the text', { text: 'a\u0000b' }, ['body', 'text']],
    ];

    it.each(cases)('writing a note with %s → 422', async (_name, body, loc) => {
      const before = await noteRows(service);
      const res = await service.post(`/prototypes/${prototypeId}/notes`, body);
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
      expect(await noteRows(service)).toEqual(before);
    });

    it.each(cases.filter(([name]) => name !== 'no text'))('changing a note to %s → 422', async (_name, body, loc) => {
      const before = await noteRows(service);
      const res = await service.patch(`/notes/${note.note_id}`, body);
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
      expect(await noteRows(service)).toEqual(before);
    });

    it('at exactly 5 minutes ahead is taken', async () => {
      expect((await write(prototypeId, { text: 't', at: iso(NOW + 5 * MINUTE) })).at).toBe(iso(NOW + 5 * MINUTE));
    });

    it('an unknown prototype or note → 404; a bad id → 422', async () => {
      const before = await noteRows(service);
      expect((await service.post('/prototypes/999999/notes', { text: 'nowhere' })).status).toBe(404);
      expect((await service.post('/prototypes/x/notes', { text: 'nowhere' })).status).toBe(422);
      expect((await service.patch('/notes/999999', { text: 'nothing' })).status).toBe(404);
      expect((await service.patch('/notes/x', { text: 'nothing' })).status).toBe(422);
      expect((await del('/notes/999999')).status).toBe(404);
      expect((await del('/notes/-1')).status).toBe(422);
      expect((await service.get('/notes/999999')).status).toBe(404);
      expect(await noteRows(service)).toEqual(before);
    });

    it.each([
      ['limit=0', ['query', 'limit']],
      ['limit=1001', ['query', 'limit']],
      ['tag=', ['query', 'tag']],
      ['before=999999', ['query', 'before']],
      ['before=x', ['query', 'before']],
      ['prototype_id=-1', ['query', 'prototype_id']],
      ['start_time=yesterday', ['query', 'start_time']],
      [`start_time=${iso(NOW)}&end_time=${iso(NOW - 1)}`, ['query', 'start_time']],
    ])('listing with %s → 422', async (query, loc) => {
      const res = await service.get(`/notes?${query}`);
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
    });
  });

  describe('deleting a prototype with notes', () => {
    it('is refused while it has notes (409 counting them), nothing deleted; cascade=true deletes them with it', async () => {
      const prototypeId = await newPrototype();
      const a = await write(prototypeId, { text: 'one', tags: ['t'] });
      const b = await write(prototypeId, { text: 'two' });
      const before = await noteRows(service);
      const refused = await del(`/prototypes/${prototypeId}`);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toBe(
        `Prototype ${prototypeId} still has 2 notes; delete them first, or add ?cascade=true to delete them with it`,
      );
      expect(refused.body.dependents).toEqual({ sensors: 0, actuators: 0, measurements: 0, notes: 2 });
      expect(await noteRows(service)).toEqual(before);
      expect((await service.get(`/prototypes/${prototypeId}`)).status).toBe(200);

      expect((await del(`/prototypes/${prototypeId}?cascade=true`)).status).toBe(204);
      for (const n of [a, b]) expect((await service.get(`/notes/${n.note_id}`)).status).toBe(404);
      const after = await noteRows(service);
      expect(after.notes).toHaveLength(before.notes.length - 2);
      expect(after.tags).toHaveLength(before.tags.length - 1);
    });

    it('counts its notes beside its sensors and measurements', async () => {
      const prototypeId = await newPrototype();
      const sensor = await service.post('/sensors/', { ...phSensorBody, prototype_id: prototypeId });
      await service.post('/measurements', { sensor_id: sensor.body.sensor_id, value: 6 });
      await write(prototypeId, { text: 'one' });
      const refused = await del(`/prototypes/${prototypeId}`);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toBe(
        `Prototype ${prototypeId} still has 1 sensor, 1 measurement and 1 note; delete them first, or add ?cascade=true to delete them with it`,
      );
      expect(refused.body.dependents).toEqual({ sensors: 1, actuators: 0, measurements: 1, notes: 1 });
    });

    it('with no notes and nothing else, is deleted at once', async () => {
      const prototypeId = await newPrototype();
      const note = await write(prototypeId, { text: 'short lived' });
      expect((await del(`/notes/${note.note_id}`)).status).toBe(204);
      expect((await del(`/prototypes/${prototypeId}`)).status).toBe(204);
    });
  });
});
