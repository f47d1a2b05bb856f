import { bucketCount, BucketLayout } from '../domain/buckets.js';
import { exportLines } from './csv.js';
import { parseDateTime } from '../domain/date-time.js';
import { perSensorCount, randomSeries, seededRandom } from './random-series.js';
import { bucketStart, DAY } from '../domain/bucket-sizes.js';
import type { ExportQuery, MeasurementBase, RandomMeasurements, WindowQuery } from '../domain/measurement.js';
import { isMissingReference, type NewMeasurement, type StoredMeasurement } from '../store/index.js';
import { Conflict, InvalidInput, NotFound, type ValidationIssue } from '../core/errors.js';
import type { ServiceDeps } from '../core/service-deps.js';
import type { HistoryService } from '../history/service.js';
import { windowOf } from '../core/window.js';
import { keptStamp } from './stamps.js';

/** A window's answer: short enough to hold whole (as rows, or as the JSON text of them), or pages to stream as they are read. */
export type WindowRows = { rows: StoredMeasurement[] } | { text: string } | { pages: AsyncGenerator<StoredMeasurement[]> };

function extent(values: Float64Array): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

/** The pages already read, then the rest; stopping early stops the reading too. */
async function* resume(head: StoredMeasurement[][], rest: AsyncGenerator<StoredMeasurement[]>): AsyncGenerator<StoredMeasurement[]> {
  try {
    yield* head;
    yield* rest;
  } finally {
    await rest.return(undefined);
  }
}

export function measurementService({ store, bus, now, log }: ServiceDeps, history: HistoryService) {
  /**
   * Demo data never drives a pump (docs/safety.md): refused (409) while an enabled actuator
   * reads any of these sensors, as its own sensor or as an interlock; the detail names them.
   */
  async function refuseWhilePumpsEnabled(sensorIds: readonly number[]): Promise<void> {
    const written = new Set(sensorIds);
    const enabled = (await store.actuators.all()).filter((a) => Boolean(a.enabled));
    const interlocks = await store.interlocks.ofActuators(enabled.map((a) => a.actuator_id));
    const driven = enabled.filter(
      (a) => written.has(a.sensor_id) || (interlocks.get(a.actuator_id) ?? []).some((i) => written.has(i.sensor_id)),
    );
    if (driven.length === 0) return;
    const names = driven.map((a) => (a.actuator_name ? `${a.actuator_name} (#${a.actuator_id})` : `#${a.actuator_id}`)).join(', ');
    throw new Conflict(
      `Synthetic data would reach enabled actuators: ${names}. Disable or delete them first: generated readings must never make a pump run.`,
    );
  }

  return {
    /**
     * Records one measurement or a batch (`batch` says which the request was, for the places of
     * its problems): all of them or none, answered once committed.
     */
    async record(items: readonly MeasurementBase[], batch: boolean): Promise<StoredMeasurement[]> {
      const receivedAt = now();
      const rows: NewMeasurement[] = new Array(items.length);
      const issues: ValidationIssue[] = [];
      for (let index = 0; index < items.length; index++) {
        const item = items[index];
        // A device with a broken clock must not poison "last measurement", nor a fast one outrank the readings after it.
        const timestamp = keptStamp(item.timestamp === undefined ? undefined : parseDateTime(item.timestamp), receivedAt);
        if (timestamp === 'too_far_ahead') {
          issues.push({
            loc: batch ? ['body', index, 'timestamp'] : ['body', 'timestamp'],
            msg: 'timestamp is more than 5 minutes in the future',
            type: 'value_error',
          });
        } else rows[index] = { sensor_id: item.sensor_id, value: item.value, timestamp };
      }
      if (issues.length > 0) throw new InvalidInput(...issues);
      const ids = rows.map((r) => r.sensor_id);
      const known = await store.sensors.existing(ids);
      const missing = ids.find((id) => !known.has(id));
      if (missing !== undefined) throw new NotFound(`Sensor ${missing} not found`);
      const stored = await store.ingest(rows).catch(async (error: unknown) => {
        // A sensor deleted between the check above and the insert.
        if (!isMissingReference(error)) throw error;
        const stillKnown = await store.sensors.existing(ids);
        throw new NotFound(`Sensor ${ids.find((id) => !stillKnown.has(id)) ?? ids[0]} not found`);
      });
      bus.publish('measurements', { rows: stored });
      return stored;
    },

    /**
     * A sensor's measurements in a window, ascending. With `max_points`, when the window holds
     * more, each of max_points/2 equal spans of time keeps its lowest and highest measurement.
     */
    async window(sensorId: number, query: WindowQuery): Promise<WindowRows> {
      const window = windowOf(query, now());
      const { max_points } = query;
      // Kept from the last read of the sensor, nothing written since: the sensor exists.
      const kept = max_points === undefined ? store.windowText?.cached(sensorId, window) : undefined;
      if (kept !== undefined) return { text: kept };
      if (!(await store.sensors.get(sensorId))) throw new NotFound(`Sensor ${sensorId} not found`);
      if (max_points !== undefined) {
        const fromBuckets = await history.downsampled(sensorId, window, max_points);
        if (fromBuckets) return { rows: fromBuckets };
        const span = await store.measurements.windowSpan(sensorId, window);
        if (span.count > max_points) {
          const layout = new BucketLayout(span.first, span.last, bucketCount(max_points));
          return { rows: await store.measurements.extremesPerBucket(sensorId, window, layout, span.count) };
        }
      }
      const text = store.windowText?.read(sensorId, window);
      if (text !== undefined) return { text };
      const pages = store.measurements.walkWindow(sensorId, window);
      const first = await pages.next();
      if (first.done) return { rows: [] };
      const second = await pages.next();
      if (second.done) return { rows: first.value };
      return { pages: resume([first.value, second.value], pages) };
    },

    /** The newest measurement of a sensor (by timestamp, ties: the highest id). */
    async last(sensorId: number): Promise<StoredMeasurement> {
      const last = await store.measurements.last(sensorId);
      if (last) return last;
      if (!(await store.sensors.get(sensorId))) throw new NotFound(`Sensor ${sensorId} not found`);
      throw new NotFound(`Sensor ${sensorId} has no measurements`);
    },

    async remove(measurementId: number): Promise<void> {
      const measurement = await store.remove.measurement(measurementId);
      if (!measurement) throw new NotFound(`Measurement ${measurementId} not found`);
      bus.publish('measurementDeleted', { measurement });
    },

    /** The CSV export of the sensors and window the query selects, as text chunks read page by page. */
    async exportCsv({ sensor_id, prototype_id, start_time, end_time }: ExportQuery): Promise<AsyncGenerator<string | Buffer>> {
      const window = windowOf({ start_time, end_time }, now());
      const sensors = await store.sensors.list({ sensorIds: sensor_id, prototypeId: prototype_id });
      const copy = store.copyCsvLines;
      return exportLines(
        sensors,
        (id) => store.measurements.walkWindow(id, window),
        copy && ((id, head, tail) => copy(id, window, head, tail)),
      );
    },

    /**
     * Synthetic data shared equally among all sensors, in one transaction (replacing every
     * measurement when asked).
     */
    async generate(options: RandomMeasurements): Promise<{ generated: number; deleted: number; sensors: number }> {
      const ratios = options.yearly_measurements_ratio + options.dayly_measurements_ratio + options.hourly_measurements_ratio;
      if (ratios > 1 + 1e-9) {
        throw new InvalidInput({ loc: ['body'], msg: 'The three measurement ratios must add up to at most 1', type: 'value_error' });
      }
      const tank = options.prototype_id;
      if (tank !== undefined && !(await store.prototypes.get(tank))) {
        throw new InvalidInput({ loc: ['body', 'prototype_id'], msg: `Prototype ${tank} not found`, type: 'value_error' });
      }
      const sensors = await store.sensors.list(tank === undefined ? {} : { prototypeId: tank });
      if (sensors.length === 0) {
        throw new InvalidInput({ loc: ['body'], msg: 'There are no sensors to generate measurements for', type: 'value_error' });
      }
      await refuseWhilePumpsEnabled(sensors.map((s) => s.sensor_id));
      const perSensor = perSensorCount(options.nb_measurements, sensors.length);
      const at = now();
      const random = seededRandom(Math.floor(Math.random() * 2 ** 32));
      const scoped = tank !== undefined;
      const deleted = store.loadSeries
        ? await store.loadSeries(
            sensors.map((sensor) => ({ sensorId: sensor.sensor_id, ...randomSeries(sensor, perSensor, options, at, random) })),
            options.replace && scoped ? { sensorIds: sensors.map((s) => s.sensor_id) } : options.replace,
          )
        : await store.transaction(async (tx) => {
            let removed = 0;
            // One tank's data replaces only its own; the whole store's, everything.
            if (options.replace && scoped) removed = await tx.measurements.deleteOfSensors(sensors.map((s) => s.sensor_id));
            else if (options.replace) {
              removed = await tx.measurements.deleteAll();
              await tx.history.removeAll();
            }
            for (const sensor of sensors) {
              const series = randomSeries(sensor, perSensor, options, at, random);
              await tx.measurements.insertSeries(sensor.sensor_id, series.timestamps, series.values);
              // The series goes in without ids, so its days are summarized from the rows as stored
              // (all of them when it replaced the sensor's rows: no bucket of the old ones stays).
              const { min, max } = extent(series.timestamps);
              if (options.replace && scoped) await tx.history.rebuild(sensor.sensor_id, undefined, undefined);
              else await tx.history.rebuild(sensor.sensor_id, bucketStart(min, DAY), bucketStart(max, DAY) + DAY);
            }
            return removed;
          });
      const generated = perSensor * sensors.length;
      bus.publish('generated', { sensorIds: sensors.map((s) => s.sensor_id), generated, deleted });
      // Fresh planner statistics for the table that just changed size; the data is committed
      // already, so a failure here is only worth a warning.
      await store.measurements.analyze().catch((error: unknown) => log.warn({ err: error }, 'analyze after generation failed'));
      return { generated, deleted, sensors: sensors.length };
    },
  };
}

export type MeasurementService = ReturnType<typeof measurementService>;
