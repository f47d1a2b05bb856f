import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bucket, bucketsOf } from '../../src/domain/bucket-fold.js';
import { DAY, FIVE_MINUTES, KEPT_SIZES } from '../../src/domain/bucket-sizes.js';
import { retentionJob } from '../../src/history/retention-job.js';
import { storedBuckets as storedBucketsOf } from '../helpers/history.js';
import { historyRepository } from '../../src/store/repositories/history.js';
import type { StoredMeasurement } from '../../src/store/index.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds, dbOf, dialectOf } from '../helpers/stores.js';

const SENSORS = [1, 2, 3];
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

type Op =
  | { kind: 'ingest'; batches: { sensor: number; offsets: number[]; values: number[] }[] }
  | { kind: 'delete'; pick: number[] }
  | { kind: 'generate'; replace: boolean }
  | { kind: 'retain'; days: number };

const ingest = fc.record({
  kind: fc.constant('ingest' as const),
  // Several requests at once (they share group commits), each a single reading or a batch, in
  // and out of order, up to three days late.
  batches: fc.array(
    fc.record({
      sensor: fc.constantFrom(...SENSORS),
      offsets: fc.array(fc.integer({ min: 0, max: 3 * DAY }), { minLength: 1, maxLength: 15 }),
      values: fc.array(
        fc.integer({ min: -500, max: 500 }).map((v) => v / 4),
        { minLength: 15, maxLength: 15 },
      ),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: ingest },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('generate' as const), replace: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retain' as const), days: fc.integer({ min: 0, max: 3 }) }) },
);

describe.each(storeKinds())('history buckets under any interleaving of writes (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = Date.UTC(2026, 10, 22, 12);
  });
  afterAll(() => service?.close());

  const history = () => historyRepository(dbOf(service.store), dialectOf(service.store));

  async function rawRows(): Promise<StoredMeasurement[]> {
    return dbOf(service.store)
      .selectFrom('measurements')
      .select(['measurement_id', 'sensor_id', 'value', dialectOf(service.store).timestampMs().as('timestamp')])
      .execute();
  }

  const storedBuckets = (sensorId: number, size: number): Promise<Bucket[]> => storedBucketsOf(dbOf(service.store), sensorId, size);

  const comparable = (b: Bucket) => ({ ...b, sum: Math.round(b.sum * 1e6) / 1e6 });

  it('leaves every bucket equal to a recomputation from the rows it covers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        // Every measurement the buckets must account for: raw rows, and rows retired by retention.
        expect((await service.post('/Measurement/Random', { nb_measurements: 30, replace: true })).status).toBe(200);
        // Raw rows expected, and rows the buckets hold although their raw rows were retired (kept
        // apart: SQLite may hand a retired row's id to a new one).
        let live = new Map((await rawRows()).map((r) => [r.measurement_id, r]));
        let retired: StoredMeasurement[] = [];
        let fiveMinuteCutoff = -Infinity;
        for (const o of ops) {
          const now = service.clock.now as number;
          const cutoff = await history().retiredBefore();
          if (o.kind === 'ingest') {
            const answers = await Promise.all(
              o.batches.map((b) => {
                const body = b.offsets.map((off, i) => ({
                  sensor_id: b.sensor,
                  value: b.values[i],
                  timestamp: new Date(now - off).toISOString(),
                }));
                return service.post('/measurements', body.length === 1 ? body[0] : body);
              }),
            );
            for (const a of answers) {
              expect(a.status).toBe(200);
              for (const m of [a.body].flat()) live.set(m.measurement_id, { ...m, timestamp: Date.parse(m.timestamp) });
            }
          } else if (o.kind === 'delete') {
            const raw = await rawRows();
            if (raw.length === 0) continue;
            const ids = [...new Set(o.pick.map((p) => raw[p % raw.length].measurement_id))];
            for (const id of ids) expect((await service.request('DELETE', `/measurements/${id}`)).status).toBe(204);
            // A delete in the retired range leaves its bucket as the record it is.
            for (const id of ids) {
              const row = live.get(id);
              live.delete(id);
              if (row && row.timestamp < cutoff) retired.push(row);
            }
          } else if (o.kind === 'generate') {
            expect((await service.post('/Measurement/Random', { nb_measurements: 30, replace: o.replace })).status).toBe(200);
            const raw = await rawRows();
            if (o.replace) {
              live = new Map(raw.map((r) => [r.measurement_id, r]));
              retired = [];
              fiveMinuteCutoff = -Infinity;
            } else {
              // Generated rows older than the retention cutoff are left to retention, outside the buckets.
              for (const r of raw) if (!live.has(r.measurement_id) && r.timestamp >= cutoff) live.set(r.measurement_id, r);
              for (const r of raw) if (!live.has(r.measurement_id)) live.set(r.measurement_id, { ...r, value: NaN });
            }
          } else {
            service.clock.now = now + o.days * DAY;
            const job = retentionJob(service.store, { rawMs: 2 * DAY, fiveMinuteMs: 3 * DAY }, () => service.clock.now as number, quiet, {
              batchSize: 7,
            });
            await job.runOnce();
            const retiredBefore = await history().retiredBefore();
            for (const [id, r] of live) {
              if (r.timestamp >= retiredBefore) continue;
              live.delete(id);
              if (!Number.isNaN(r.value)) retired.push(r);
            }
            fiveMinuteCutoff = Math.floor(((service.clock.now as number) - 3 * DAY) / DAY) * DAY;
          }
        }

        // PostgreSQL folds hours and days in its rollup: what it stores once the rollup came by.
        while (service.store.upkeep && (await service.store.upkeep.rollUp()) > 0);
        const raw = await rawRows();
        // The raw rows are exactly the ones expected.
        expect(raw.map((r) => r.measurement_id).sort((a, b) => a - b)).toEqual([...live.keys()].sort((a, b) => a - b));
        for (const sensorId of SENSORS) {
          const covered = [...live.values(), ...retired].filter((r) => r.sensor_id === sensorId && !Number.isNaN(r.value));
          for (const size of KEPT_SIZES) {
            let want = bucketsOf(covered, size);
            let got = await storedBuckets(sensorId, size);
            if (size === FIVE_MINUTES) {
              // Retired 5-minute buckets are gone; late rows may start new ones there, which are not compared.
              want = want.filter((b) => b.start >= fiveMinuteCutoff);
              got = got.filter((b) => b.start >= fiveMinuteCutoff);
            }
            expect(got.map(comparable), `sensor ${sensorId}, size ${size}`).toEqual(want.map(comparable));
          }
        }
      }),
      {
        numRuns: kind === 'postgres' ? 12 : 25,
        // Generated rows older than retention's cutoff once made buckets on PostgreSQL's bulk load.
        examples: [
          [
            [
              { kind: 'retain', days: 0 },
              { kind: 'generate', replace: false },
              { kind: 'delete', pick: [0] },
            ],
          ],
        ],
      },
    );
  }, 600_000);
});
