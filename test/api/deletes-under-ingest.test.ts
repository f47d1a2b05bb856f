import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds, dbOf } from '../helpers/stores.js';

const ROUNDS = 25;
const CLIENTS = 4;
const SENSORS_PER_PROTOTYPE = 3;

/** Every table whose rows belong to a sensor: none may keep a row of a deleted one. */
const BELOW_SENSORS = ['measurements', 'history_buckets', 'alerts', 'alert_levels', 'actuators'] as const;

const sensorBody = (prototype_id: number) => ({
  sensor_type: 'ph',
  prototype_id,
  sensor_unit: 'pH',
  threshold_critically_low: 0,
  threshold_low: 4,
  threshold_high: 7,
  threshold_critically_high: 10,
});

describe.each(storeKinds())('a cascade delete of a prototype under concurrent ingest (%s)', (kind) => {
  let service: TestService;
  const errors: string[] = [];
  beforeAll(async () => {
    const logs = new Writable({
      write(chunk, _encoding, done) {
        errors.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    service = await startService(kind, { app: { logger: { level: 'error', stream: logs } } });
  });
  afterAll(() => service?.close());

  /** One device posting to the prototype's sensors until one of its posts finds them gone. */
  async function device(client: number, sensorIds: number[], statuses: number[], posted: () => void): Promise<void> {
    for (let i = 0; ; i++) {
      const sensor_id = sensorIds[(client + i) % sensorIds.length];
      // Values on both sides of the thresholds: every measurement changes the level, so alerts are evaluated too.
      const value = i % 2 === 0 ? 2 : 9;
      const body = i % 3 === 0 ? sensorIds.map((id, k) => ({ sensor_id: id, value: value + k / 10 })) : { sensor_id, value };
      const res = await service.post('/measurements', body);
      statuses.push(res.status);
      if (res.status !== 200) return;
      posted();
    }
  }

  it(
    `answers only 200 or 404 to ingest and 204 to the delete, ${ROUNDS} times, and leaves no row of a deleted sensor`,
    { timeout: 300_000 },
    async () => {
      const statuses: number[] = [];
      const deletes: number[] = [];
      const deleted: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const prototype_id = 1000 + round;
        expect((await service.post('/prototypes', { prototype_id, prototype_name: `round ${round}` })).status).toBe(200);
        const sensorIds: number[] = [];
        for (let s = 0; s < SENSORS_PER_PROTOTYPE; s++)
          sensorIds.push((await service.post('/sensors/', sensorBody(prototype_id))).body.sensor_id);
        deleted.push(...sensorIds);
        await service.post('/actuators', {
          actuator_type: 'acid_pump',
          sensor_id: sensorIds[0],
          condition_value: 5,
          activation_condition: 'high',
          activation_period: 0,
          activation_duration: 2,
        });

        // The delete goes once every device has had a post through, so that it meets ingest under way.
        let waiting = CLIENTS;
        let allPosting!: () => void;
        const everyonePosting = new Promise<void>((resolve) => (allPosting = resolve));
        const devices = Array.from({ length: CLIENTS }, (_, client) => {
          let counted = false;
          // A device counts once it has a post through, or has stopped (on a failure the assertions below report).
          const ready = () => {
            if (counted) return;
            counted = true;
            if (--waiting === 0) allPosting();
          };
          return device(client, sensorIds, statuses, ready).finally(ready);
        });
        await everyonePosting;
        deletes.push((await service.request('DELETE', `/prototypes/${prototype_id}?cascade=true`)).status);
        await Promise.all(devices);
      }

      expect(deletes).toEqual(Array(ROUNDS).fill(204));
      expect(statuses.filter((s) => s !== 200 && s !== 404)).toEqual([]);
      // Every device stopped on its 404.
      expect(statuses.filter((s) => s === 404)).toHaveLength(ROUNDS * CLIENTS);

      for (const table of BELOW_SENSORS) {
        const orphans = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} t
        where not exists (select 1 from sensors s where s.sensor_id = t.sensor_id)`.execute(dbOf(service.store));
        expect({ table, orphans: Number(orphans.rows[0].n) }).toEqual({ table, orphans: 0 });
        const left = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}
        where sensor_id in (${sql.join(deleted)})`.execute(dbOf(service.store));
        expect({ table, left: Number(left.rows[0].n) }).toEqual({ table, left: 0 });
      }
      // Nothing failed behind the answers either (alert evaluations of the deleted sensors included).
      expect(errors).toEqual([]);
    },
  );
});
