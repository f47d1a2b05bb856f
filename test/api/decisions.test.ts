import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { manualServiceTimers } from '../helpers/manual-timers.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { tokenFor } from '../helpers/tokens.js';

/** The history of each actuator's decision (`GET /actuators/{id}/decisions`) through HTTP, on both stores. */
const T0 = Date.UTC(2026, 10, 22, 2);
const S = 1000;
const MIN = 60 * S;
const iso = (ms: number) => new Date(ms).toISOString();

interface JournalEntry {
  type: string;
  at: string;
  cursor: string;
  actuator_id: number | null;
  sensor_id: number | null;
  text: string | null;
  detail: Record<string, unknown>;
}

interface Change {
  at: string;
  reason: string;
  status: string;
  activate: boolean;
  by: string | null;
}

describe.each(storeKinds())('decision history (%s)', (kind) => {
  let service: TestService;
  let manual: ReturnType<typeof manualServiceTimers>;
  let token: string;
  const opts = () => ({ token });
  let nextTank = 300;

  const ok = <T>(res: { status: number; body: T; text: string }) => {
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const at = (ms: number) => {
    manual.advanceTo(ms);
  };
  const measure = async (sensor_id: number, value: number) =>
    ok(await service.post('/measurements', { sensor_id, value, timestamp: iso(service.clock.now as number) }, opts()));
  const history = async (id: number, query = '') => ok(await service.get<Change[]>(`/actuators/${id}/decisions${query}`, opts()));
  /** Waits until the history holds `count` changes (the watcher decides and the recorder writes after the request). */
  const settled = async (id: number, count: number) => {
    await eventually(async () => {
      await service.app.decisionsRecorded();
      return (await history(id)).length >= count;
    }, `${count} decision changes`);
    return history(id);
  };

  /** A tank with a pH sensor, a tank level sensor and an acid pump held by an interlock on the level and a limit of one dose an hour. */
  async function tank(pump: Record<string, unknown> = {}) {
    const prototype_id = nextTank++;
    ok(await service.post('/prototypes', { prototype_id, prototype_name: `tank ${prototype_id}` }, opts()));
    const ph = ok(
      await service.post(
        '/sensors/',
        {
          sensor_type: 'ph',
          prototype_id,
          sensor_unit: 'pH',
          threshold_critically_low: 0,
          threshold_low: 5,
          threshold_high: 14,
          threshold_critically_high: 14,
          stale_after: 3600,
        },
        opts(),
      ),
    ).sensor_id as number;
    const level = ok(
      await service.post(
        '/sensors/',
        {
          sensor_type: 'water_level',
          sensor_name: 'Tank level',
          prototype_id,
          sensor_unit: '%',
          threshold_critically_low: 0,
          threshold_low: 0,
          threshold_high: 100,
          threshold_critically_high: 100,
        },
        opts(),
      ),
    ).sensor_id as number;
    const body = {
      actuator_type: 'acid_pump',
      sensor_id: ph,
      condition_value: 6.5,
      activation_condition: 'high',
      activation_period: 60,
      activation_duration: 3,
      max_doses_per_hour: 1,
      interlocks: [{ sensor_id: level, block_below: 20, block_above: null }],
      ...pump,
    };
    const actuator = ok(await service.post('/actuators', body, opts())).actuator_id as number;
    return { prototype_id, ph, level, actuator };
  }

  beforeAll(async () => {
    manual = manualServiceTimers(T0 - 5 * MIN);
    service = await startService(kind, {
      now: T0 - 5 * MIN,
      env: { AUTH_MODE: 'enforced', STALE_AFTER: 'PT3H' },
      app: { liveEvents: { timers: manual.timers } },
    });
    manual.follow(service);
    token = await tokenFor(service.store, 'grower', 1 | 2 | 4);
  });
  afterAll(() => service?.close());

  it('records each change of reason once, newest first, and answers "why not" at any instant', async () => {
    // Made two minutes before: a new pump waits one period from its creation.
    at(T0 - 2 * MIN);
    const { prototype_id, ph, level, actuator } = await tank();
    await settled(actuator, 1);
    at(T0);
    await measure(level, 50);
    await measure(ph, 8);
    await settled(actuator, 2);
    // Polls decide again and again: nothing is written for them. The first claims the dose; the
    // others are told it is claimed, which is no change of the pump's own decision.
    expect(ok(await service.get(`/actuators/${actuator}/state`, opts())).activate).toBe(true);
    for (let i = 0; i < 4; i++) expect(ok(await service.get(`/actuators/${actuator}/state`, opts())).reason).toBe('claimed');
    at(T0 + MIN);
    // The run report comes after the claim's grace (3 s of run + 30 s): the claim stands as a dose
    // of its own, unreported, and the report records a second one. The period from the claim ends
    // as the report comes: the limit holds it for that instant, then the report starts the period again.
    ok(await service.patch(`/actuators/${actuator}/last_activated`, undefined, opts()));
    await settled(actuator, 5);
    // The period elapses by itself: the limit of one dose an hour holds it.
    at(T0 + 2 * MIN);
    await settled(actuator, 6);
    at(T0 + 10 * MIN);
    await measure(level, 10);
    await settled(actuator, 7);
    at(T0 + 40 * MIN);
    await measure(level, 50);
    await measure(ph, 8);
    await settled(actuator, 8);
    // The limit's window frees at 03:01; the pH reading of 02:40 turns stale at 03:40.
    at(T0 + 101 * MIN);
    const changes = await settled(actuator, 10);

    expect(changes.map((c) => [c.at, c.reason, c.activate])).toEqual([
      // Stale once older than stale_after: a millisecond after the hour.
      [iso(T0 + 100 * MIN + 1), 'stale', false],
      [iso(T0 + 61 * MIN), 'ok', true],
      [iso(T0 + 40 * MIN), 'limit', false],
      [iso(T0 + 10 * MIN), 'interlock', false],
      [iso(T0 + 2 * MIN), 'limit', false],
      [iso(T0 + MIN), 'waiting', false],
      [iso(T0 + MIN), 'limit', false],
      // The claim counts as the dose: its period starts at once.
      [iso(T0), 'waiting', false],
      [iso(T0), 'ok', true],
      [iso(T0 - 2 * MIN), 'no_measurement', false],
    ]);
    expect(changes.every((c) => c.by === null)).toBe(true);
    const interlock = changes.find((c) => c.reason === 'interlock') as Change;
    expect(interlock.status).toMatch(/Tank level/);
    expect(interlock.status).toMatch(/20/);

    // Why did it not dose at 02:30? The newest change at or before it.
    const [then] = await history(actuator, `?end_time=${iso(T0 + 30 * MIN)}&limit=1`);
    expect(then.reason).toBe('interlock');
    // Paging: `before` the last one shown.
    const first = await history(actuator, '?limit=3');
    expect(first.map((c) => c.reason)).toEqual(['stale', 'ok', 'limit']);
    const next = await history(actuator, `?limit=3&before=${first[2].at}`);
    expect(next.map((c) => c.reason)).toEqual(['interlock', 'limit', 'waiting']);
    const windowed = await history(actuator, `?start_time=${iso(T0 + MIN)}&end_time=${iso(T0 + 61 * MIN)}`);
    expect(windowed.map((c) => c.reason)).toEqual(['limit', 'interlock', 'limit', 'waiting', 'limit']);

    // The journal shows the holds as spans, when asked for them: each ends where the next change began.
    const holds = ok(await service.get<JournalEntry[]>(`/prototypes/${prototype_id}/journal?type=hold`, opts()));
    expect(holds.map((h) => [h.at, h.detail.until, h.actuator_id, h.sensor_id])).toEqual([
      [iso(T0 + 100 * MIN + 1), null, actuator, ph],
      [iso(T0 + 40 * MIN), iso(T0 + 61 * MIN), actuator, ph],
      [iso(T0 + 10 * MIN), iso(T0 + 40 * MIN), actuator, ph],
      [iso(T0 + 2 * MIN), iso(T0 + 10 * MIN), actuator, ph],
      [iso(T0 - 2 * MIN), iso(T0), actuator, ph],
    ]);
    expect(holds[2].text).toBe('Interlock: Tank level is 10 (below 20)');
    const all = ok(await service.get<JournalEntry[]>(`/prototypes/${prototype_id}/journal`, opts()));
    expect(all.filter((e) => e.type === 'hold')).toEqual([]);
    const both = ok(await service.get<JournalEntry[]>(`/prototypes/${prototype_id}/journal?type=dose,hold&limit=2`, opts()));
    expect(both.map((e) => e.type)).toEqual(['hold', 'hold']);
    const page2 = ok(
      await service.get<JournalEntry[]>(`/prototypes/${prototype_id}/journal?type=dose,hold&before=${both[1].cursor}`, opts()),
    );
    expect(page2.map((e) => e.type)).toEqual(['hold', 'hold', 'dose', 'dose', 'hold']);
  });

  it('names who unlocked the pump on the change the unlock caused', async () => {
    at(T0 + 200 * MIN);
    // An explicit threshold judges the dose on the one late reading this test gives.
    const { ph, level, actuator } = await tank({ lockout_after: 1, response_delay: 10, max_doses_per_hour: null, min_response: 0 });
    await measure(level, 50);
    await measure(ph, 8);
    ok(await service.patch(`/actuators/${actuator}/last_activated`, undefined, opts()));
    at(T0 + 200 * MIN + 20 * S);
    await measure(ph, 8);
    const locked = await settled(actuator, 3);
    expect(locked[0].reason).toBe('locked_out');
    expect(locked[0].by).toBeNull();
    at(T0 + 202 * MIN);
    ok(await service.post(`/actuators/${actuator}/unlock`, undefined, opts()));
    const after = await settled(actuator, 4);
    expect(after[0]).toMatchObject({ reason: 'ok', by: 'grower', at: iso(T0 + 202 * MIN) });
  });

  it('refuses bad parameters with 422 and an unknown actuator with 404, writing nothing', async () => {
    const { actuator } = await tank();
    const before = await settled(actuator, 1);
    for (const query of ['limit=0', 'limit=1001', 'limit=x', 'before=yesterday', 'start_time=soon', 'end_time=2026-13-01T00:00:00Z']) {
      const res = await service.get(`/actuators/${actuator}/decisions?${query}`, opts());
      expect(res.status, query).toBe(422);
    }
    expect((await service.get(`/actuators/${actuator}/decisions?start_time=${iso(T0 + MIN)}&end_time=${iso(T0)}`, opts())).status).toBe(
      422,
    );
    expect((await service.get('/actuators/99999/decisions', opts())).status).toBe(404);
    expect((await service.get('/actuators/abc/decisions', opts())).status).toBe(422);
    // Reading needs a token in enforced mode.
    expect((await service.get(`/actuators/${actuator}/decisions`)).status).toBe(401);
    expect(await history(actuator)).toEqual(before);
  });

  it('goes with its actuator', async () => {
    const { actuator } = await tank();
    await settled(actuator, 1);
    expect((await service.request('DELETE', `/actuators/${actuator}`, opts())).status).toBe(204);
    expect((await service.get(`/actuators/${actuator}/decisions`, opts())).status).toBe(404);
  });
});
