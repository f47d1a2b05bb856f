import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { tokenFor } from '../helpers/tokens.js';

/** Calibrations, notes and the journal (docs/api.md §15) in AUTH_MODE=enforced: reads need 2, writes 4, and writers are named. */
describe.each(storeKinds())('records in AUTH_MODE=enforced (%s)', (kind) => {
  let service: TestService;
  let editor: string;
  let reader: string;
  let device: string;
  let sensorId: number;
  let noteId: number;
  const ONE_POINT = { points: [{ reference: 7, reading: 7.1 }] };

  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced' } });
    editor = await tokenFor(service.store, 'grower', 2 | 4);
    reader = await tokenFor(service.store, 'viewer', 2);
    device = await tokenFor(service.store, 'probe', 1);
    sensorId = (await service.post('/sensors/', phSensorBody, { token: editor })).body.sensor_id;
    noteId = (await service.post('/prototypes/0/notes', { text: 'first' }, { token: editor })).body.note_id;
  });
  afterAll(() => service?.close());

  it('reads need the read permission (2)', async () => {
    for (const path of [
      `/sensors/${sensorId}/calibrations`,
      '/notes',
      `/notes/${noteId}`,
      '/prototypes/0/journal',
      '/prototypes/0/journal.csv',
    ]) {
      expect((await service.get(path)).status, path).toBe(401);
      expect((await service.get(path, { token: device })).status, path).toBe(403);
      expect((await service.get(path, { token: reader })).status, path).toBe(200);
    }
  });

  it('writes need modify (4) and change nothing without it', async () => {
    const writes: [string, string, unknown][] = [
      ['POST', `/sensors/${sensorId}/calibrations`, ONE_POINT],
      ['POST', '/prototypes/0/notes', { text: 'not mine to write' }],
      ['PATCH', `/notes/${noteId}`, { text: 'not mine to change' }],
      ['DELETE', `/notes/${noteId}`, undefined],
    ];
    for (const [method, path, json] of writes) {
      const send = (token?: string) =>
        service.request(method, path, {
          token,
          ...(json === undefined ? {} : { raw: JSON.stringify(json), headers: { 'content-type': 'application/json' } }),
        });
      expect((await send()).status, `${method} ${path}`).toBe(401);
      expect((await send(reader)).status, `${method} ${path}`).toBe(403);
    }
    expect((await service.get(`/sensors/${sensorId}/calibrations`, { token: reader })).body).toEqual([]);
    expect((await service.get('/notes', { token: reader })).body.map((n: { text: string }) => n.text)).toEqual(['first']);
  });

  it('records the user as the author of notes, calibrations, unlocks, pauses and resumes', async () => {
    const note = await service.post('/prototypes/0/notes', { text: 'mine' }, { token: editor });
    expect(note.body.author).toBe('grower');
    const calibration = await service.post(`/sensors/${sensorId}/calibrations`, ONE_POINT, { token: editor });
    expect(calibration.status).toBe(200);
    expect(calibration.body.author).toBe('grower');
    const pump = await service.post(
      '/actuators',
      {
        actuator_type: 'acid_pump',
        sensor_id: sensorId,
        condition_value: 6.5,
        activation_condition: 'high',
        activation_period: 60,
        activation_duration: 2,
      },
      { token: editor },
    );
    // Locked out as the dose judging would (its own tests cover that); unlocked through the API.
    await service.store.actuators.lockOut(pump.body.actuator_id, Date.now(), 'test');
    expect((await service.post(`/actuators/${pump.body.actuator_id}/unlock`, undefined, { token: editor })).status).toBe(200);
    expect((await service.post('/prototypes/0/pause', { for: 60 }, { token: editor })).status).toBe(200);
    expect((await service.request('DELETE', '/prototypes/0/pause', { token: editor })).status).toBe(204);
    const journal = (await service.get('/prototypes/0/journal?type=note,calibration,unlock,pause,resume', { token: reader })).body as {
      type: string;
      author: string | null;
    }[];
    expect(journal.map((e) => [e.type, e.author])).toEqual([
      ['resume', 'grower'],
      ['pause', 'grower'],
      ['unlock', 'grower'],
      ['calibration', 'grower'],
      ['note', 'grower'],
      ['note', 'grower'],
    ]);
  });
});
