import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { dbOf, scratchDatabase, storeKinds } from '../helpers/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12);
/** An acid pump on the default pH sensor (2) of prototype 0: 10 s a dose. */
const pump = {
  actuator_type: 'acid_pump',
  sensor_id: 2,
  condition_value: 6.5,
  activation_condition: 'high',
  activation_period: 0,
  activation_duration: 10,
};

/** A dose volume that overflows is refused; one already stored never breaks a read (docs/api.md §15). */
describe.each(storeKinds())('volumes that overflow (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind, { now: NOW });
  });
  afterAll(() => service?.close());

  const actuatorCount = async () => (await service.get('/actuators/0')).body.length as number;

  it('refuses a flow whose dose volume overflows, on create and on patch, writing nothing', async () => {
    const before = await actuatorCount();
    const created = await service.post('/actuators', { ...pump, flow_ml_per_s: 1e308 });
    expect(created.status).toBe(422);
    expect(created.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'flow_ml_per_s'] })]);
    expect(await actuatorCount()).toBe(before);

    const ok = await service.post('/actuators', { ...pump, flow_ml_per_s: 2 });
    expect(ok.status).toBe(200);
    const id = ok.body.actuator_id;
    for (const change of [{ flow_ml_per_s: 1e308 }, { activation_duration: 1e308 }, { flow_ml_per_s: 1e300, activation_duration: 1e10 }]) {
      const patched = await service.patch('/actuators', [{ actuator_id: id, ...change }]);
      expect(patched.status, JSON.stringify(change)).toBe(422);
    }
    const [kept] = (await service.get('/actuators/0')).body.filter((a: { actuator_id: number }) => a.actuator_id === id);
    expect(kept).toMatchObject({ flow_ml_per_s: 2, activation_duration: 10 });
  });

  it('reads doses, dose totals and the journal when the store holds a volume that is not finite', async () => {
    const created = await service.post('/actuators', { ...pump, flow_ml_per_s: 1 });
    const id = created.body.actuator_id;
    for (const at of [NOW - 3000, NOW - 2000, NOW - 1000]) {
      service.clock.now = at;
      expect((await service.patch(`/actuators/${id}/last_activated`)).status).toBe(200);
    }
    service.clock.now = NOW;
    // Written past the service, as an older version or a hand edit could have left them.
    const ids = (await dbOf(service.store).selectFrom('activations').select('activation_id').where('actuator_id', '=', id).execute()).map(
      (r) => r.activation_id,
    );
    const values = kind === 'postgres' ? ['Infinity', '-Infinity', 'NaN'] : [Infinity, -Infinity, NaN];
    for (const [i, activationId] of ids.entries()) {
      const value = kind === 'postgres' ? sql`cast(${values[i]} as double precision)` : sql`${values[i]}`;
      await sql`update activations set volume_ml = ${value} where activation_id = ${activationId}`.execute(dbOf(service.store));
    }

    const activations = await service.get(`/actuators/${id}/activations`);
    expect(activations.status).toBe(200);
    expect(activations.body).toHaveLength(3);
    for (const dose of activations.body) expect(dose.volume_ml).toBeNull();
    const totals = await service.get(`/actuators/${id}/doses?bucket=1d&start_time=2026-11-22T00:00:00Z`);
    expect(totals.status).toBe(200);
    expect(totals.body[0]).toMatchObject({ doses: 3, volume_ml: null });
    const journal = await service.get('/prototypes/0/journal?type=dose');
    expect(journal.status).toBe(200);
    const doses = journal.body.filter((e: { type: string; actuator_id: number }) => e.type === 'dose' && e.actuator_id === id);
    expect(doses).toHaveLength(3);
    for (const dose of doses) expect(dose.detail.volume_ml).toBeNull();
    expect((await service.get('/prototypes/0/journal.csv')).status).toBe(200);
    expect((await service.get(`/actuators/${id}/state`)).status).toBe(200);
  });

  it('holds the pump back on its daily ml limit when a stored volume is -Infinity, after a restart', async () => {
    const database = await scratchDatabase(kind);
    let own = await startService(kind, { now: NOW, database });
    try {
      const reading = await own.post('/measurements', { sensor_id: 2, value: 7.5, timestamp: new Date(NOW - 500).toISOString() });
      expect(reading.status).toBe(200);
      const created = await own.post('/actuators', { ...pump, flow_ml_per_s: 1, max_ml_per_day: 100 });
      const id = created.body.actuator_id;
      own.clock.now = NOW - 1000;
      expect((await own.patch(`/actuators/${id}/last_activated`)).status).toBe(200);
      own.clock.now = NOW;
      // Observed through the tank's status: a state read answering activate: true would claim a
      // dose of its own, and that claim (not the limit) would then answer the read below.
      const status = await own.get('/prototypes/0/status');
      const observed = status.body.actuators.find((a: { actuator: { actuator_id: number } }) => a.actuator.actuator_id === id);
      expect(observed.state).toMatchObject({ activate: true, reason: 'ok' });
      const value = kind === 'postgres' ? sql`cast('-Infinity' as double precision)` : sql`${-Infinity}`;
      await sql`update activations set volume_ml = ${value} where actuator_id = ${id}`.execute(dbOf(own.store));
      await own.close();
      own = await startService(kind, { now: NOW, database });
      const fresh = await own.post('/measurements', { sensor_id: 2, value: 7.5, timestamp: new Date(NOW).toISOString() });
      expect(fresh.status).toBe(200);
      const state = await own.get(`/actuators/${id}/state`);
      expect(state.status).toBe(200);
      expect(state.body).toMatchObject({ activate: false, reason: 'limit' });
    } finally {
      await own.close();
      await database.drop();
    }
  });
});
