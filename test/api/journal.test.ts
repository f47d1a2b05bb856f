import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/** A prototype's journal (docs/api.md §15) through HTTP, on both stores. */
const NOW = Date.UTC(2026, 10, 22, 12);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const iso = (ms: number) => new Date(ms).toISOString();

interface Entry {
  type: string;
  at: string;
  id: number;
  cursor: string;
  sensor_id: number | null;
  actuator_id: number | null;
  author: string | null;
  text: string | null;
  tags: string[];
  detail: Record<string, unknown>;
}

describe.each(storeKinds())('the journal (%s)', (kind) => {
  let service: TestService;
  let prototypeId: number;
  let sensorId: number;
  let actuatorId: number;
  let otherPrototype: number;
  /** What the tank went through, oldest first: the entries the journal must show, newest first. */
  const expected: { type: string; at: number; fields?: Partial<Entry> }[] = [];

  /** The clock moves to `at` first. */
  const at = (ms: number) => {
    service.clock.now = ms;
  };
  const read = async (value: number, when: number) => {
    at(when);
    expect((await service.post('/measurements', { sensor_id: sensorId, value, timestamp: iso(when) })).status).toBe(200);
    await service.app.alertsSettled();
  };
  const ran = async (when: number) => {
    at(when);
    expect((await service.patch(`/actuators/${actuatorId}/last_activated`)).status).toBe(200);
    await service.app.alertsSettled();
  };
  const journal = async (query = ''): Promise<Entry[]> => {
    const res = await service.get(`/prototypes/${prototypeId}/journal${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const summary = (entries: Entry[]) => entries.map((e) => `${e.type}@${(Date.parse(e.at) - NOW) / SECOND}`);

  beforeAll(async () => {
    service = await startService(kind);
    at(NOW);
    prototypeId = 300;
    otherPrototype = 301;
    for (const id of [prototypeId, otherPrototype]) {
      expect((await service.post('/prototypes', { prototype_id: id, prototype_name: `tank ${id}` })).status).toBe(200);
    }
    sensorId = (await service.post('/sensors/', { ...phSensorBody, threshold_high: 14, prototype_id: prototypeId })).body.sensor_id;
    const pump = await service.post('/actuators', {
      actuator_type: 'acid_pump',
      sensor_id: sensorId,
      condition_value: 6.5,
      activation_condition: 'high',
      activation_period: 60,
      activation_duration: 3,
      response_delay: 10,
      lockout_after: 2,
      // An explicit threshold judges each dose on the one late reading given here.
      min_response: 0,
      flow_ml_per_s: 0.5,
      stock_ml: 100,
    });
    actuatorId = pump.body.actuator_id;

    // A note, a dose that answers, two that do not (the second locks the pump out), an unlock,
    // a calibration, a pause ended early, a pause left to end by itself, a note dated back.
    const note = await service.post(`/prototypes/${prototypeId}/notes`, { text: 'Filled the tank', tags: ['water'] });
    expected.push({ type: 'note', at: NOW, fields: { id: note.body.note_id, text: 'Filled the tank', tags: ['water'], detail: {} } });
    await read(7, NOW + MINUTE);
    await ran(NOW + MINUTE);
    expected.push({ type: 'dose', at: NOW + MINUTE, fields: { sensor_id: sensorId, actuator_id: actuatorId } });
    await read(6.8, NOW + 2 * MINUTE);
    await ran(NOW + 2 * MINUTE);
    expected.push({ type: 'dose', at: NOW + 2 * MINUTE });
    await read(6.9, NOW + 3 * MINUTE);
    await ran(NOW + 3 * MINUTE);
    expected.push({ type: 'dose', at: NOW + 3 * MINUTE });
    await read(7, NOW + 4 * MINUTE);
    expected.push({ type: 'lockout', at: NOW + 4 * MINUTE, fields: { actuator_id: actuatorId, author: null } });
    at(NOW + 5 * MINUTE);
    expect((await service.post(`/actuators/${actuatorId}/unlock`)).status).toBe(200);
    expected.push({ type: 'unlock', at: NOW + 5 * MINUTE, fields: { actuator_id: actuatorId, text: null } });
    at(NOW + 5 * MINUTE + 30 * SECOND);
    expect((await service.post(`/actuators/${actuatorId}/refill`, { stock_ml: 500 })).status).toBe(200);
    expected.push({
      type: 'refill',
      at: NOW + 5 * MINUTE + 30 * SECOND,
      fields: { sensor_id: sensorId, actuator_id: actuatorId, author: null, detail: { stock_ml: 500 } },
    });
    at(NOW + 6 * MINUTE);
    const calibration = await service.post(`/sensors/${sensorId}/calibrations`, {
      points: [
        { reference: 4, reading: 4.1 },
        { reference: 7, reading: 7.1 },
      ],
      note: 'fresh buffers',
    });
    expected.push({
      type: 'calibration',
      at: NOW + 6 * MINUTE,
      fields: { id: calibration.body.calibration_id, sensor_id: sensorId, text: 'fresh buffers' },
    });
    at(NOW + 7 * MINUTE);
    expect((await service.post(`/prototypes/${prototypeId}/pause`, { for: 3600 })).status).toBe(200);
    expected.push({ type: 'pause', at: NOW + 7 * MINUTE, fields: { detail: { until: iso(NOW + 7 * MINUTE + 3600 * SECOND) } } });
    at(NOW + 8 * MINUTE);
    expect((await service.request('DELETE', `/prototypes/${prototypeId}/pause`)).status).toBe(204);
    expected.push({ type: 'resume', at: NOW + 8 * MINUTE, fields: { detail: { until: null } } });
    // Resuming what is not paused records nothing.
    at(NOW + 8 * MINUTE + SECOND);
    expect((await service.request('DELETE', `/prototypes/${prototypeId}/pause`)).status).toBe(204);
    at(NOW + 9 * MINUTE);
    expect((await service.post(`/prototypes/${prototypeId}/pause`, { for: 60 })).status).toBe(200);
    expected.push({ type: 'pause', at: NOW + 9 * MINUTE });
    at(NOW + 10 * MINUTE);
    const early = await service.post(`/prototypes/${prototypeId}/notes`, {
      text: 'Roots look brown',
      at: iso(NOW - MINUTE),
      tags: ['roots'],
    });
    expected.push({ type: 'note', at: NOW - MINUTE, fields: { id: early.body.note_id } });

    // Records of another prototype stay out of this one's journal.
    await service.post(`/prototypes/${otherPrototype}/notes`, { text: 'elsewhere', tags: ['water'] });
    await service.post(`/prototypes/${otherPrototype}/pause`, { for: 60 });
  });
  afterAll(() => service?.close());

  it('merges the notes with the doses, refills, lockouts, unlocks, calibrations, pauses and resumes, newest first', async () => {
    const entries = await journal();
    const newestFirst = [...expected].sort((a, b) => b.at - a.at);
    expect(summary(entries)).toEqual(newestFirst.map((e) => `${e.type}@${(e.at - NOW) / SECOND}`));
    newestFirst.forEach((e, i) => expect(entries[i], `${e.type}@${e.at}`).toMatchObject({ at: iso(e.at), ...e.fields }));
    for (const e of entries) expect(e.cursor).toBe(`${Date.parse(e.at)}.${e.type}.${e.id}`);

    const doses = entries.filter((e) => e.type === 'dose').reverse();
    expect(doses.map((d) => d.detail)).toEqual([
      { duration: 3, volume_ml: 1.5, value_before: 7, answered: true },
      { duration: 3, volume_ml: 1.5, value_before: 6.8, answered: false },
      { duration: 3, volume_ml: 1.5, value_before: 6.9, answered: false },
    ]);
    const activations = (await service.get(`/actuators/${actuatorId}/activations`)).body.reverse();
    expect(doses.map((d) => d.id)).toEqual(activations.map((a: { activation_id: number }) => a.activation_id));
    expect(entries.find((e) => e.type === 'lockout')?.text).toBe('2 doses in a row did not move pH down by more than 0');
    const calibration = entries.find((e) => e.type === 'calibration')!;
    expect(calibration.detail).toMatchObject({ accepted: true, points: 2 });
    expect(calibration.detail.slope).toBeCloseTo(1, 12);
    expect(calibration.detail.offset).toBeCloseTo(0.1, 12);
  });

  it('filters by type (comma-separated), tag and window', async () => {
    expect(summary(await journal('?type=pause,resume'))).toEqual(['pause@540', 'resume@480', 'pause@420']);
    expect(summary(await journal('?type=note'))).toEqual(['note@0', 'note@-60']);
    expect(summary(await journal('?type=lockout, unlock'))).toEqual(['unlock@300', 'lockout@240']);
    expect(summary(await journal('?tag=water'))).toEqual(['note@0']);
    expect(summary(await journal('?tag=water&type=dose'))).toEqual([]);
    expect(summary(await journal(`?start_time=${iso(NOW + 2 * MINUTE)}&end_time=${iso(NOW + 5 * MINUTE)}`))).toEqual([
      'lockout@240',
      'dose@180',
      'dose@120',
    ]);
  });

  it('pages by `before`, the cursor of the last entry, without losing or repeating one', async () => {
    const everything = await journal();
    for (const limit of [1, 2, 3]) {
      const seen: Entry[] = [];
      let query = `?limit=${limit}`;
      for (;;) {
        const page = await journal(query);
        seen.push(...page);
        if (page.length < limit) break;
        query = `?limit=${limit}&before=${page[page.length - 1].cursor}`;
      }
      expect(seen, `pages of ${limit}`).toEqual(everything);
    }
  });

  it('as CSV: the same entries, at /journal.csv and with format=csv, every one without a limit', async () => {
    const csv = await service.get(`/prototypes/${prototypeId}/journal.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="prototype_${prototypeId}_journal.csv"`);
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe(
      'type,at,id,sensor_id,actuator_id,author,text,tags,duration,volume_ml,value_before,answered,stock_ml,slope,offset,accepted,points,until',
    );
    expect(lines.at(-1)).toBe('');
    const entries = await journal();
    expect(lines.slice(1, -1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual(entries.map((e) => `${e.type},${e.at},${e.id}`));
    expect(lines).toContain(`note,${iso(NOW)},${entries.find((e) => e.text === 'Filled the tank')!.id},,,,Filled the tank,water,,,,,,,,,,`);
    expect(lines.find((l) => l.startsWith('dose,') && l.includes(',true,'))).toMatch(
      new RegExp(`^dose,[^,]+,\\d+,${sensorId},${actuatorId},,,,3,1.5,7,true,,,,,,$`),
    );

    const viaFormat = await service.get(`/prototypes/${prototypeId}/journal?format=csv`);
    expect(viaFormat.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(viaFormat.text).toBe(csv.text);
    const limited = await service.get(`/prototypes/${prototypeId}/journal.csv?type=dose&limit=2`);
    expect(
      limited.text
        .split('\r\n')
        .slice(1, -1)
        .map((l) => l.split(',')[0]),
    ).toEqual(['dose', 'dose']);
  });

  it('an empty journal is an empty list, and a CSV of the header alone', async () => {
    const empty = 302;
    expect((await service.post('/prototypes', { prototype_id: empty, prototype_name: 'empty' })).status).toBe(200);
    expect((await service.get(`/prototypes/${empty}/journal`)).body).toEqual([]);
    expect((await service.get(`/prototypes/${empty}/journal.csv`)).text.split('\r\n')).toHaveLength(2);
  });

  it.each([
    ['type=dose,refund', ['query', 'type']],
    ['before=garbage', ['query', 'before']],
    ['before=1795000000000.refund.3', ['query', 'before']],
    ['limit=0', ['query', 'limit']],
    ['limit=1001', ['query', 'limit']],
    ['format=xml', ['query', 'format']],
    ['tag=', ['query', 'tag']],
    ['end_time=soon', ['query', 'end_time']],
    [`start_time=${iso(NOW)}&end_time=${iso(NOW - 1)}`, ['query', 'start_time']],
  ])('%s → 422 (JSON and CSV)', async (query, loc) => {
    for (const path of [`/prototypes/${prototypeId}/journal?${query}`, `/prototypes/${prototypeId}/journal.csv?${query}`]) {
      if (path.includes('.csv') && query.startsWith('format')) continue;
      const res = await service.get(path);
      expect(res.status, path).toBe(422);
      expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
    }
  });

  it('an unknown prototype → 404; a bad id → 422', async () => {
    expect((await service.get('/prototypes/999999/journal')).status).toBe(404);
    expect((await service.get('/prototypes/999999/journal.csv')).status).toBe(404);
    expect((await service.get('/prototypes/999999/journal?format=csv')).status).toBe(404);
    expect((await service.get('/prototypes/x/journal')).status).toBe(422);
  });

  it('deleting the actuator takes its doses, lockouts and unlocks out of the journal; the rest stays', async () => {
    expect((await service.request('DELETE', `/actuators/${actuatorId}`)).status).toBe(204);
    expect(summary(await journal())).toEqual(['pause@540', 'resume@480', 'pause@420', 'calibration@360', 'note@0', 'note@-60']);
  });
});
