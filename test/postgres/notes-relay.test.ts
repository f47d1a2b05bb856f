import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestJson, type ServiceProcess, spawnService } from '../helpers/process.js';
import { openStream, type SseStream } from '../helpers/sse.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

describe.runIf(process.env.TEST_DATABASE_URL)('note events across service processes on one PostgreSQL database', () => {
  let database: ScratchDatabase;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let stream: SseStream | undefined;
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    [a, b] = await Promise.all([spawnService({ DATABASE_URL: database.url }), spawnService({ DATABASE_URL: database.url })]);
  }, 120_000);
  afterAll(async () => {
    stream?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  it('a note written, changed and deleted through one process reaches the streams of the other, whole, however long', async () => {
    stream = await openStream(`${b.url}/events?types=note&prototype_id=0`);
    const heard = async (count: number) => {
      await stream!.next(() => stream!.events.length >= count);
      return JSON.parse(stream!.events[count - 1].data);
    };
    // Each step waits for the one before to be heard: a note read back once deleted is not announced, its delete is.
    const created = await requestJson(`${a.url}/prototypes/0/notes`, 'POST', { text: '🌱'.repeat(2000), tags: ['x'.repeat(32)] });
    expect(created.status).toBe(200);
    expect(await heard(1)).toEqual(created.body);
    const noteId = created.body.note_id as number;
    const changed = await requestJson(`${a.url}/notes/${noteId}`, 'PATCH', { text: 'shorter', tags: [] });
    expect(changed.status).toBe(200);
    expect(await heard(2)).toEqual(changed.body);
    expect((await fetch(`${a.url}/notes/${noteId}`, { method: 'DELETE' })).status).toBe(204);
    expect(await heard(3)).toEqual({ deleted: noteId, prototype_id: 0 });
    expect(stream.events.map((e) => e.event)).toEqual(['note', 'note', 'note']);
  });
});
