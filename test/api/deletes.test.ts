import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSecret, tokenService } from '../../src/auth/tokens.js';
import type { Store } from '../../src/store/index.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds, dbOf } from '../helpers/stores.js';

const sensorBody = (prototype_id: number) => ({
  sensor_type: 'ph',
  prototype_id,
  sensor_unit: 'pH',
  threshold_critically_low: 0,
  threshold_low: 4,
  threshold_high: 7,
  threshold_critically_high: 10,
});
const actuatorBody = (sensor_id: number) => ({
  actuator_type: 'acid_pump',
  sensor_id,
  condition_value: 5,
  activation_condition: 'high',
  activation_period: 0,
  activation_duration: 2,
});

/** Row counts of every table a delete touches: what "nothing was written" compares. */
async function counts(store: Store) {
  const n = async (table: 'prototypes' | 'sensors' | 'actuators' | 'measurements') =>
    Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(dbOf(store))).rows[0].n);
  return {
    prototypes: await n('prototypes'),
    sensors: await n('sensors'),
    actuators: await n('actuators'),
    measurements: await n('measurements'),
  };
}

/** A schema of the OpenAPI document, its `$ref` followed. */
function resolve(doc: any, schema: any): any {
  if (!schema.$ref) return schema;
  return schema.$ref
    .split('/')
    .slice(1)
    .reduce((node: any, key: string) => node[key], doc);
}

describe.each(storeKinds())('deletes (%s)', (kind) => {
  let service: TestService;
  let nextPrototype = 100;
  beforeAll(async () => {
    service = await startService(kind);
  });
  afterAll(() => service?.close());

  const del = (path: string, token?: string) => service.request('DELETE', path, { token });

  /** A prototype with one sensor, `measurements` readings on it (one a second) and one actuator. */
  async function tank(measurements = 3) {
    const prototype_id = nextPrototype++;
    expect((await service.post('/prototypes', { prototype_id, prototype_name: `tank ${prototype_id}` })).status).toBe(200);
    const sensor = (await service.post('/sensors/', sensorBody(prototype_id))).body;
    const actuator = (await service.post('/actuators', actuatorBody(sensor.sensor_id))).body;
    const base = Date.now() - 60_000;
    const posted = await service.post(
      '/measurements',
      Array.from({ length: measurements }, (_, i) => ({
        sensor_id: sensor.sensor_id,
        value: 6 + i,
        timestamp: new Date(base + i * 1000).toISOString(),
      })),
    );
    expect(posted.status).toBe(200);
    return {
      prototype_id,
      sensor_id: sensor.sensor_id as number,
      actuator_id: actuator.actuator_id as number,
      measurements: posted.body as { measurement_id: number; value: number }[],
    };
  }

  describe('DELETE /measurements/{measurement_id}', () => {
    it('answers 204 without a body, and the newest of the rest becomes the last one and drives the pump', async () => {
      const { prototype_id, sensor_id, actuator_id, measurements } = await tank(2);
      /** The pump's decision as the tank's status shows it (a read that claims no dose). */
      const decision = async () =>
        (await service.get(`/prototypes/${prototype_id}/status`)).body.actuators.find(
          (a: { actuator: { actuator_id: number } }) => a.actuator.actuator_id === actuator_id,
        ).state;
      // Read first, so that an in-memory newest value exists to be corrected.
      expect((await service.get(`/measurements/${sensor_id}/last`)).body.value).toBe(7);
      expect((await decision()).activate).toBe(true);

      const res = await del(`/measurements/${measurements[1].measurement_id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await service.get(`/measurements/${sensor_id}/last`)).body).toMatchObject({
        measurement_id: measurements[0].measurement_id,
        value: 6,
      });
      // 6 is above the condition (5) too, so the pump still runs; then without any reading it cannot.
      expect(await decision()).toMatchObject({ activate: true, status: 'OK' });
      expect((await del(`/measurements/${measurements[0].measurement_id}/`)).status).toBe(204);
      const last = await service.get(`/measurements/${sensor_id}/last`);
      expect(last.status).toBe(404);
      expect(last.body.detail).toBe(`Sensor ${sensor_id} has no measurements`);
      expect((await service.get(`/actuators/${actuator_id}/state`)).body.activate).toBe(false);
      expect((await service.get(`/measurements/${sensor_id}`)).body).toEqual([]);
    });

    it('answers 404 for an unknown or already deleted measurement, and changes nothing', async () => {
      const { measurements } = await tank(1);
      expect((await del(`/measurements/${measurements[0].measurement_id}`)).status).toBe(204);
      const before = await counts(service.store);
      const again = await del(`/measurements/${measurements[0].measurement_id}`);
      expect(again.status).toBe(404);
      expect(again.body.detail).toBe(`Measurement ${measurements[0].measurement_id} not found`);
      expect((await del('/measurements/2147483647')).status).toBe(404);
      expect(await counts(service.store)).toEqual(before);
    });

    it.each(['abc', '-1', '1.5', '2147483648'])('answers 422 for the id %s and deletes nothing', async (id) => {
      await tank(1);
      const before = await counts(service.store);
      const res = await del(`/measurements/${id}`);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['path', 'measurement_id']);
      expect(await counts(service.store)).toEqual(before);
    });
  });

  describe('DELETE /actuators/{actuator_id}', () => {
    it('answers 204, and the controller then gets 404 for its state', async () => {
      const { prototype_id, actuator_id } = await tank(1);
      expect((await service.get(`/actuators/${actuator_id}/state`)).status).toBe(200);
      expect((await del(`/actuators/${actuator_id}`)).status).toBe(204);
      const state = await service.get(`/actuators/${actuator_id}/state`);
      expect(state.status).toBe(404);
      expect((await service.get(`/actuators/${prototype_id}`)).body).toEqual([]);
      expect((await service.request('PATCH', `/actuators/${actuator_id}/last_activated`)).status).toBe(404);
    });

    it('answers 404 for an unknown actuator and 422 for a bad id, deleting nothing', async () => {
      await tank(1);
      const before = await counts(service.store);
      const missing = await del('/actuators/999999');
      expect(missing.status).toBe(404);
      expect(missing.body.detail).toBe('Actuator 999999 not found');
      const bad = await del('/actuators/pump');
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['path', 'actuator_id']);
      expect(await counts(service.store)).toEqual(before);
    });
  });

  describe('DELETE /sensors/{sensor_id}', () => {
    it('refuses with 409 and the counts while measurements or actuators remain, changing nothing', async () => {
      const { sensor_id, actuator_id } = await tank(3);
      const before = await counts(service.store);
      const res = await del(`/sensors/${sensor_id}`);
      expect(res.status).toBe(409);
      expect(res.body.detail).toBe(
        `Sensor ${sensor_id} still has 1 actuator and 3 measurements; delete them first, or add ?cascade=true to delete them with it`,
      );
      // The counts as data too, for a client that acts on them rather than shows the sentence.
      expect(res.body.dependents).toEqual({ sensors: 0, actuators: 1, measurements: 3, notes: 0 });
      expect((await del(`/sensors/${sensor_id}?cascade=false`)).status).toBe(409);
      expect(await counts(service.store)).toEqual(before);
      expect((await service.get(`/actuators/${actuator_id}/state`)).status).toBe(200);
    });

    it('names only what is below it in the 409: measurements without actuators', async () => {
      const { sensor_id, actuator_id } = await tank(1);
      expect((await del(`/actuators/${actuator_id}`)).status).toBe(204);
      const res = await del(`/sensors/${sensor_id}`);
      expect(res.status).toBe(409);
      expect(res.body.detail).toBe(
        `Sensor ${sensor_id} still has 1 measurement; delete them first, or add ?cascade=true to delete them with it`,
      );
      expect(res.body.dependents).toEqual({ sensors: 0, actuators: 0, measurements: 1, notes: 0 });
    });

    it('deletes a sensor with nothing below it without cascade', async () => {
      const prototype_id = nextPrototype++;
      await service.post('/prototypes', { prototype_id, prototype_name: 'bare' });
      const sensor = (await service.post('/sensors/', sensorBody(prototype_id))).body;
      expect((await del(`/sensors/${sensor.sensor_id}`)).status).toBe(204);
      expect((await service.get(`/sensors/${prototype_id}`)).body).toEqual([]);
    });

    it('with cascade=true deletes its measurements and actuators with it; ingest for it then answers 404', async () => {
      const { prototype_id, sensor_id, actuator_id } = await tank(3);
      // Reads and an ingest first, so every cache in front of the store knows this sensor.
      expect((await service.get(`/measurements/${sensor_id}/last`)).status).toBe(200);
      expect((await service.get(`/actuators/${actuator_id}/state`)).status).toBe(200);
      expect((await service.post('/measurements', { sensor_id, value: 6.5 })).status).toBe(200);
      const before = await counts(service.store);

      const res = await del(`/sensors/${sensor_id}/?cascade=true`);
      expect(res.status).toBe(204);
      expect(await counts(service.store)).toEqual({
        ...before,
        sensors: before.sensors - 1,
        actuators: before.actuators - 1,
        measurements: before.measurements - 4,
      });
      expect((await service.get(`/sensors/${prototype_id}`)).body).toEqual([]);
      expect((await service.get(`/measurements/${sensor_id}/last`)).body.detail).toBe(`Sensor ${sensor_id} not found`);
      expect((await service.get(`/actuators/${actuator_id}/state`)).status).toBe(404);
      const late = await service.post('/measurements', { sensor_id, value: 6.6 });
      expect(late.status).toBe(404);
      expect(late.body.detail).toBe(`Sensor ${sensor_id} not found`);
      expect(
        (
          await service.post('/measurements', [
            { sensor_id: 1, value: 1 },
            { sensor_id, value: 2 },
          ])
        ).status,
      ).toBe(404);
      expect(await counts(service.store)).toEqual({
        ...before,
        sensors: before.sensors - 1,
        actuators: before.actuators - 1,
        measurements: before.measurements - 4,
      });
      expect((await del(`/sensors/${sensor_id}`)).status).toBe(404);
    });

    it.each([
      ['a bad id', '/sensors/x', ['path', 'sensor_id']],
      ['a bad cascade value', '/sensors/1?cascade=yes', ['query', 'cascade']],
    ])('answers 422 for %s and deletes nothing', async (_name, path, loc) => {
      const before = await counts(service.store);
      const res = await del(path);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(loc);
      expect(await counts(service.store)).toEqual(before);
    });
  });

  describe('DELETE /prototypes/{prototype_id}', () => {
    it('refuses with 409 counting sensors, actuators and measurements, changing nothing', async () => {
      const { prototype_id } = await tank(2);
      await service.post('/sensors/', sensorBody(prototype_id));
      const before = await counts(service.store);
      const res = await del(`/prototypes/${prototype_id}`);
      expect(res.status).toBe(409);
      expect(res.body.detail).toBe(
        `Prototype ${prototype_id} still has 2 sensors, 1 actuator and 2 measurements; delete them first, or add ?cascade=true to delete them with it`,
      );
      expect(res.body.dependents).toEqual({ sensors: 2, actuators: 1, measurements: 2, notes: 0 });
      expect(await counts(service.store)).toEqual(before);
    });

    it('with cascade=true deletes everything below it in one go, and nothing of other prototypes', async () => {
      const kept = await tank(2);
      const { prototype_id, sensor_id, actuator_id } = await tank(5);
      await service.post('/sensors/', sensorBody(prototype_id));
      const before = await counts(service.store);
      expect((await service.get(`/measurements/${sensor_id}/last`)).status).toBe(200);

      expect((await del(`/prototypes/${prototype_id}?cascade=true`)).status).toBe(204);
      expect(await counts(service.store)).toEqual({
        prototypes: before.prototypes - 1,
        sensors: before.sensors - 2,
        actuators: before.actuators - 1,
        measurements: before.measurements - 5,
      });
      expect((await service.get(`/prototypes/${prototype_id}`)).status).toBe(404);
      expect((await service.get(`/sensors/${prototype_id}`)).status).toBe(404);
      expect((await service.get(`/measurements/${sensor_id}/last`)).status).toBe(404);
      expect((await service.get(`/actuators/${actuator_id}/state`)).status).toBe(404);
      expect((await service.post('/measurements', { sensor_id, value: 1 })).status).toBe(404);
      // The other prototype is untouched.
      expect((await service.get(`/measurements/${kept.sensor_id}`)).body).toHaveLength(2);
      expect((await service.get(`/actuators/${kept.actuator_id}/state`)).status).toBe(200);
    });

    it('deletes an empty prototype without cascade, and answers 404 after', async () => {
      const prototype_id = nextPrototype++;
      await service.post('/prototypes', { prototype_id, prototype_name: 'empty' });
      expect((await del(`/prototypes/${prototype_id}`)).status).toBe(204);
      const again = await del(`/prototypes/${prototype_id}`);
      expect(again.status).toBe(404);
      expect(again.body.detail).toBe(`Prototype ${prototype_id} not found`);
      // The id is free again.
      expect((await service.post('/prototypes', { prototype_id, prototype_name: 'again' })).status).toBe(200);
    });

    it('answers 422 for a negative id and deletes nothing', async () => {
      const before = await counts(service.store);
      const res = await del('/prototypes/-3?cascade=true');
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['path', 'prototype_id']);
      expect(await counts(service.store)).toEqual(before);
    });
  });

  it('lists every delete in the OpenAPI document with its 204', async () => {
    const doc = (await service.get('/openapi.json')).body;
    const operations = [
      ['/measurements/{measurement_id}', 'deleteMeasurement'],
      ['/actuators/{actuator_id}', 'deleteActuator'],
      ['/sensors/{sensor_id}', 'deleteSensor'],
      ['/prototypes/{prototype_id}', 'deletePrototype'],
    ];
    for (const [path, operationId] of operations) {
      expect(doc.paths[path].delete.operationId).toBe(operationId);
      expect(Object.keys(doc.paths[path].delete.responses)).toEqual(expect.arrayContaining(['204', '404', '422']));
    }
    expect(Object.keys(doc.paths['/sensors/{sensor_id}'].delete.responses)).toContain('409');
  });

  it('documents the counts of a refused delete in the 409 schema of both deletes', async () => {
    const doc = (await service.get('/openapi.json')).body;
    for (const path of ['/sensors/{sensor_id}', '/prototypes/{prototype_id}']) {
      const refused = doc.paths[path].delete.responses['409'];
      const schema = resolve(doc, refused.content['application/json'].schema);
      expect(schema.required).toEqual(expect.arrayContaining(['detail', 'dependents']));
      const dependents = resolve(doc, schema.properties.dependents);
      expect(Object.keys(dependents.properties).sort()).toEqual(['actuators', 'measurements', 'notes', 'sensors']);
      expect(doc.paths[path].delete.description).toContain('`dependents`');
    }
  });
});

describe.each(storeKinds())('a sensor deleted by another service on the same store (%s)', (kind) => {
  it('answers 404 to ingest on the service that had seen the sensor, and writes nothing', async () => {
    const first = await startService(kind);
    const second = await startService(kind, { database: first.database });
    try {
      await first.post('/prototypes', { prototype_id: 5, prototype_name: 'shared' });
      const sensor = (await first.post('/sensors/', sensorBody(5))).body;
      // The second process checks the sensor once and then remembers it.
      expect((await second.post('/measurements', { sensor_id: sensor.sensor_id, value: 6 })).status).toBe(200);
      expect((await first.request('DELETE', `/sensors/${sensor.sensor_id}?cascade=true`)).status).toBe(204);
      const before = await counts(first.store);
      const late = await second.post('/measurements', [
        { sensor_id: 1, value: 1 },
        { sensor_id: sensor.sensor_id, value: 6.1 },
      ]);
      expect(late.status).toBe(404);
      expect(late.body.detail).toBe(`Sensor ${sensor.sensor_id} not found`);
      expect(await counts(first.store)).toEqual(before);
      // It has forgotten the sensor: the next one is refused before any insert.
      expect((await second.post('/measurements', { sensor_id: sensor.sensor_id, value: 6.2 })).status).toBe(404);
      expect((await second.post('/measurements', { sensor_id: 1, value: 2 })).status).toBe(200);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe.each(storeKinds())('deletes in AUTH_MODE=enforced (%s)', (kind) => {
  let service: TestService;
  let reader: string;
  let editor: string;
  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced', SEED_DEFAULTS: 'true' } });
    const tokens = tokenService(await tokenSecret(undefined, service.store.settings), 3600_000);
    const user = async (username: string, permissions: number) =>
      tokens.issue(
        (await service.store.users.create({ username, password_hash: 'unused', permissions, created_at: Date.now() }))!,
        Date.now(),
      );
    reader = await user('reader', 2);
    editor = await user('editor', 4 | 2 | 1);
  });
  afterAll(() => service?.close());

  it('needs the modify permission: 401 without a token, 403 with a read-only one, and nothing is deleted', async () => {
    const m = (await service.post('/measurements', { sensor_id: 1, value: 1 }, { token: editor })).body;
    const paths = [`/measurements/${m.measurement_id}`, '/actuators/1', '/sensors/1?cascade=true', '/prototypes/0?cascade=true'];
    const before = await counts(service.store);
    for (const path of paths) {
      expect((await service.request('DELETE', path)).status).toBe(401);
      expect((await service.request('DELETE', path, { token: reader })).status).toBe(403);
    }
    expect(await counts(service.store)).toEqual(before);
    for (const path of paths) expect((await service.request('DELETE', path, { token: editor })).status).toBe(204);
    expect(await counts(service.store)).toEqual({
      ...before,
      prototypes: before.prototypes - 1,
      sensors: before.sensors - 3,
      actuators: 0,
      measurements: 0,
    });
  });
});
