import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { PNG } from '../helpers/images.js';
import { BUILT, run } from '../helpers/process.js';
import { startService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

describe.runIf(process.env.TEST_DATABASE_URL)('copying a SQLite store into PostgreSQL', () => {
  let source: ScratchDatabase;
  let target: ScratchDatabase;
  let token: string;
  let before: {
    sensors: unknown;
    export: string;
    actuators: unknown;
    history: unknown;
    doses: unknown;
    prototype: unknown;
    refills: unknown[];
    calibrations: unknown;
    journals: unknown[];
  };
  beforeAll(async () => {
    source = await scratchDatabase('sqlite');
    target = await scratchDatabase('postgres');
    const service = await startService('sqlite', { database: source });
    await service.post('/prototypes', { prototype_id: 4, prototype_name: 'Serre "Nord", 2' });
    await service.post('/sensors/', {
      sensor_type: 'oxygen',
      prototype_id: 4,
      sensor_unit: 'mg/L',
      threshold_critically_low: 1,
      threshold_low: 2,
      threshold_high: 3,
      threshold_critically_high: 4,
      valid_min: 0,
      valid_max: 20,
      stale_after: 600,
      stuck_after: 3600,
      calibration_interval: 30,
    });
    await service.patch('/actuators', [
      {
        actuator_id: 1,
        enabled: false,
        actuator_name: 'acid',
        max_doses_per_hour: 3,
        max_seconds_per_day: 60,
        response_delay: 120,
        flow_ml_per_s: 0.5,
        max_ml_per_day: 100,
        stock_ml: 150,
        stock_low_ml: 10,
        interlocks: [
          { sensor_id: 3, block_above: 30 },
          { sensor_id: 2, block_below: 4, block_above: 9 },
        ],
      },
    ]);
    // A refill, doses, one of them judged, and a lockout: the dosing safety state and the bottle come along too.
    await service.post('/actuators/1/refill', { stock_ml: 200 });
    await service.request('PATCH', '/actuators/1/last_activated');
    await service.request('PATCH', '/actuators/1/last_activated');
    const [firstDose] = await service.store.activations.since(1, 0);
    await service.store.activations.judge(firstDose.activation_id, false);
    await service.store.actuators.lockOut(1, Date.now(), 'copied lockout');
    await service.post('/prototypes/4/pause', { for: 'PT12H' });
    // A grower's records: a calibration (the sensor's calibrated_at and calibration_due with it) and a tagged note.
    await service.post('/sensors/4/calibrations', { points: [{ reference: 8, reading: 8.2 }], note: 'air' });
    await service.post('/prototypes/4/notes', { text: 'Air stone cleaned', tags: ['oxygen', 'maintenance'] });
    await service.post('/Measurement/Random', { nb_measurements: 12_000 });
    await service.request('PUT', '/picture', { raw: PNG, headers: { 'content-type': 'image/png' } });
    const created = await service.request('POST', '/users/new/', {
      raw: 'username=ops&password=long%20enough',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    token = created.body.access_token;
    before = {
      sensors: (await service.get('/sensors/4')).body,
      export: (await service.get('/measurements/export')).text,
      actuators: (await service.get('/actuators/0')).body,
      history: (await service.get('/measurements/1/aggregate?bucket=1d')).body,
      doses: (await service.get('/actuators/1/activations')).body,
      prototype: (await service.get('/prototypes/4')).body,
      refills: await service.store.refills.between([1], { endInclusive: false }),
      calibrations: (await service.get('/sensors/4/calibrations')).body,
      journals: [(await service.get('/prototypes/0/journal')).body, (await service.get('/prototypes/4/journal')).body],
    };
    await service.close();
  });
  afterAll(async () => {
    await source?.drop();
    await target?.drop();
  });

  const copy = (...extra: string[]) => run(process.execPath, [BUILT.copyStore, '--from', source.url, '--to', target.url, ...extra]);

  it('copies everything, with progress, and the service on PostgreSQL answers as before', async () => {
    const result = await copy();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('measurements 12,000/12,000');
    expect(result.stdout).toMatch(/counts verified/);

    const service = await startService('postgres', { database: target });
    try {
      expect((await service.get('/sensors/4')).body).toEqual(before.sensors);
      expect((await service.get('/actuators/0')).body).toEqual(before.actuators);
      expect((await service.get('/actuators/1/activations')).body).toEqual(before.doses);
      expect(before.refills).toHaveLength(1);
      expect(await service.store.refills.between([1], { endInclusive: false })).toEqual(before.refills);
      expect((await service.get('/prototypes/4')).body).toEqual(before.prototype);
      expect((await service.get('/sensors/4/calibrations')).body).toEqual(before.calibrations);
      expect([(await service.get('/prototypes/0/journal')).body, (await service.get('/prototypes/4/journal')).body]).toEqual(
        before.journals,
      );
      expect((await service.get('/measurements/export')).text).toBe(before.export);
      // The history buckets come along as they were (they may hold what retention took).
      expect((await service.get('/measurements/1/aggregate?bucket=1d')).body).toEqual(before.history);
      expect((await service.get('/users/items/', { token })).status).toBe(200);
      const picture = await fetch(`${service.url}/picture`);
      expect(Buffer.from(await picture.arrayBuffer()).equals(PNG)).toBe(true);
      // New ids continue after the copied ones.
      const sensor = await service.post('/sensors/', { ...phSensorBody, prototype_id: 4 });
      expect(sensor.status).toBe(200);
      expect(sensor.body.sensor_id).toBe(5);
      const m = await service.post('/measurements', { sensor_id: 5, value: 7 });
      expect(m.body.measurement_id).toBeGreaterThan(12_000);
      await service.request('PATCH', '/actuators/1/last_activated');
      const doses = (await service.get('/actuators/1/activations')).body;
      expect(doses).toHaveLength(3);
      expect(doses[0].activation_id).toBeGreaterThan(doses[1].activation_id);
      await service.post('/actuators/1/refill', { stock_ml: 300 });
      const refills = await service.store.refills.between([1], { endInclusive: false });
      expect(refills[0].refill_id).toBeGreaterThan(refills[1].refill_id);
      const note = await service.post('/prototypes/4/notes', { text: 'after the copy' });
      expect(note.status).toBe(200);
      expect(note.body.note_id).toBe(2);
    } finally {
      await service.close();
    }
  });

  it('refuses a target that is not empty unless --force', async () => {
    const refused = await copy();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not empty');
    const forced = await copy('--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect((await run(process.execPath, [BUILT.copyStore, '--from', source.url])).code).toBe(2);
  });
});
