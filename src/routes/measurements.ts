import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { csvField, csvRow, EXPORT_HEADER } from '../domain/csv.js';
import { BucketLayout, bucketCount } from '../domain/downsample.js';
import { randomSeries, perSensorCount, seededRandom } from '../domain/random-series.js';
import { isWindowProblem, resolveWindow, type TimeWindow } from '../domain/time-window.js';
import { invalid, notFound } from '../http/errors.js';
import { isoOf, measurementJson } from '../http/json-text.js';
import { parseDateTime } from '../http/validation.js';
import { Deleted, errorResponses } from '../schemas/common.js';
import {
  ExportQuery,
  Measurement,
  MeasurementBody,
  MeasurementIdParams,
  type MeasurementBase,
  RandomMeasurements,
  RandomResult,
  SensorIdParams,
  WindowQuery,
} from '../schemas/measurements.js';
import type { Sensor } from '../schemas/sensors.js';
import { isMissingReference } from '../store/errors.js';
import type { NewMeasurement, StoredMeasurement } from '../store/measurements.js';
import type { RouteGroup } from './deps.js';

const tags = ['Measurements'];
/** A device with a broken clock must not poison "last measurement". */
const MAX_FUTURE_MS = 5 * 60 * 1000;

const toMeasurement = (m: StoredMeasurement) => ({
  measurement_id: m.measurement_id,
  sensor_id: m.sensor_id,
  value: m.value,
  timestamp: isoOf(m.timestamp),
});

function windowFrom(query: { time_delta?: string; start_time?: string; end_time?: string }, now: number): TimeWindow {
  const window = resolveWindow(
    {
      time_delta: query.time_delta,
      start_time: query.start_time === undefined ? undefined : parseDateTime(query.start_time),
      end_time: query.end_time === undefined ? undefined : parseDateTime(query.end_time),
    },
    now,
  );
  if (isWindowProblem(window)) throw invalid({ loc: ['query', window.field], msg: window.msg, type: window.type });
  return window;
}

async function* exportLines(sensors: Sensor[], walk: (sensorId: number) => AsyncGenerator<StoredMeasurement[]>) {
  yield csvRow(EXPORT_HEADER);
  for (const sensor of sensors) {
    const head = `${sensor.sensor_id},${csvField(sensor.sensor_type)},`;
    const tail = `,${sensor.threshold_critically_low},${sensor.threshold_low},${sensor.threshold_high},${sensor.threshold_critically_high}\r\n`;
    for await (const page of walk(sensor.sensor_id)) {
      let chunk = '';
      for (const m of page) chunk += head + m.value + ',' + isoOf(m.timestamp) + tail;
      yield chunk;
    }
  }
}

/** A JSON array of measurements, one chunk per page read. */
async function* jsonArray(head: StoredMeasurement[][], rest: AsyncIterator<StoredMeasurement[]>) {
  let separator = '[';
  const chunk = (page: StoredMeasurement[]) => {
    let text = '';
    for (const m of page) {
      text += separator + measurementJson(m);
      separator = ',';
    }
    return text;
  };
  try {
    for (const page of head) yield chunk(page);
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield chunk(next.value);
    yield ']';
  } finally {
    // A client that went away stops the reading too.
    await rest.return?.(undefined);
  }
}

const measurementRoutes: RouteGroup = async (app, { store, now }) => {
  app.post('/measurements', {
    config: { access: 'post_measurements' },
    schema: {
      tags,
      summary: 'Post Measurement',
      operationId: 'postMeasurement',
      description:
        'Records one measurement, or a batch (array of up to 10,000, all or nothing). `sensor_id` may be a numeric string. ' +
        'A timestamp without an offset is UTC; more than 5 minutes in the future is refused (422). Timestamps keep millisecond precision.',
      body: MeasurementBody,
      response: { 200: Type.Union([Measurement, Type.Array(Measurement)]), ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      const batch = Array.isArray(request.body);
      const items: MeasurementBase[] = batch ? (request.body as MeasurementBase[]) : [request.body as MeasurementBase];
      const receivedAt = now();
      const rows: NewMeasurement[] = [];
      const issues = [];
      for (const [index, item] of items.entries()) {
        const timestamp = item.timestamp === undefined ? receivedAt : parseDateTime(item.timestamp);
        if (timestamp > receivedAt + MAX_FUTURE_MS) {
          issues.push({
            loc: batch ? ['body', index, 'timestamp'] : ['body', 'timestamp'],
            msg: 'timestamp is more than 5 minutes in the future',
            type: 'value_error',
          });
        }
        rows.push({ sensor_id: item.sensor_id, value: item.value, timestamp });
      }
      if (issues.length > 0) throw invalid(...issues);
      const ids = rows.map((r) => r.sensor_id);
      const known = await store.sensors.existing(ids);
      const missing = ids.find((id) => !known.has(id));
      if (missing !== undefined) throw notFound(`Sensor ${missing} not found`);
      const stored = await store.ingest(rows).catch(async (error: unknown) => {
        // A sensor deleted between the check above and the insert.
        if (!isMissingReference(error)) throw error;
        const stillKnown = await store.sensors.existing(ids);
        throw notFound(`Sensor ${ids.find((id) => !stillKnown.has(id)) ?? ids[0]} not found`);
      });
      // Written straight as JSON text in the documented shape: a batch is the hot path of ingest,
      // and the schema serializer would test each item against both branches of the union.
      const json = batch ? `[${stored.map(measurementJson).join(',')}]` : measurementJson(stored[0]);
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  });

  app.get('/measurements/export', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Export All Sensors To Csv',
      operationId: 'exportAllSensorsToCsv',
      description:
        'CSV (RFC 4180, CRLF line ends) of every measurement, ordered by sensor id then timestamp, streamed as it is read. ' +
        'Filters: sensor_id (repeatable), prototype_id, start_time, end_time ([start, end)); unknown sensor or prototype ids ' +
        'select nothing (the header alone). Values are written as the shortest text that reads back as the same double; ' +
        'timestamps as ISO 8601 UTC with milliseconds and Z. It is read in short pages (by sensor, then timestamp and id), not ' +
        'as one long query: a slow download holds no database connection or snapshot, and no statement time limit can cut ' +
        'a long export short; measurements recorded while it runs may or may not appear in it.',
      querystring: ExportQuery,
      produces: ['text/csv'],
      response: errorResponses(422),
    },
    handler: async (request, reply) => {
      const { sensor_id, prototype_id, start_time, end_time } = request.query;
      const window = windowFrom({ start_time, end_time }, now());
      const sensors = await store.sensors.list({ sensorIds: sensor_id, prototypeId: prototype_id });
      const stream = Readable.from(exportLines(sensors, (id) => store.measurements.walkWindow(id, window)), { objectMode: false });
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="all_sensors_measurements.csv"')
        .send(stream);
    },
  });

  app.get('/measurements/:sensor_id', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Get Measurement',
      operationId: 'getMeasurement',
      description:
        'The measurements of a sensor in a window, ascending by timestamp (ties by id). Without a window, all of them. ' +
        'With max_points, at most that many points: the window is cut into max_points/2 equal spans of time and each keeps ' +
        'its lowest and highest measurement, computed in the store. A long window is streamed as it is read.',
      params: SensorIdParams,
      querystring: WindowQuery,
      response: { 200: Type.Array(Measurement), ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      const { sensor_id } = request.params;
      const window = windowFrom(request.query, now());
      if (!(await store.sensors.get(sensor_id))) throw notFound(`Sensor ${sensor_id} not found`);
      const { max_points } = request.query;
      if (max_points !== undefined) {
        const span = await store.measurements.windowSpan(sensor_id, window);
        if (span.count > max_points) {
          const layout = new BucketLayout(span.first, span.last, bucketCount(max_points));
          const kept = await store.measurements.extremesPerBucket(sensor_id, window, layout, span.count);
          return kept.map(toMeasurement);
        }
      }
      const pages = store.measurements.walkWindow(sensor_id, window);
      const first = await pages.next();
      if (first.done) return [];
      const second = await pages.next();
      if (second.done) return first.value.map(toMeasurement);
      // More than a page: stream the array, so a window of millions of rows never sits in memory
      // whole (as objects, then as one JSON text longer than a string can be).
      return reply.type('application/json; charset=utf-8').send(Readable.from(jsonArray([first.value, second.value], pages)) as never);
    },
  });

  app.get('/measurements/:sensor_id/last', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Get Last Measurement',
      operationId: 'getLastMeasurement',
      description: 'The newest measurement by timestamp (ties: the highest id). 404 for an unknown sensor or one without measurements.',
      params: SensorIdParams,
      response: { 200: Measurement, ...errorResponses(404, 422) },
    },
    handler: async (request) => {
      const { sensor_id } = request.params;
      const last = await store.measurements.last(sensor_id);
      if (last) return toMeasurement(last);
      if (!(await store.sensors.get(sensor_id))) throw notFound(`Sensor ${sensor_id} not found`);
      throw notFound(`Sensor ${sensor_id} has no measurements`);
    },
  });

  app.post('/Measurement/Random', {
    config: { access: 'modify' },
    schema: {
      tags,
      summary: 'Post Random Measurements',
      operationId: 'postRandomMeasurements',
      description:
        'Fills the store with synthetic data, shared equally among all sensors (nb_measurements rounded up to a multiple of the ' +
        'sensor count). What the three ratios leave over goes to the last year. With replace (default), existing measurements ' +
        'are deleted in the same transaction. An empty body takes every default.',
      body: RandomMeasurements,
      response: { 200: RandomResult, ...errorResponses(422) },
    },
    preValidation: async (request) => {
      if (request.body === undefined || request.body === null) request.body = {} as never;
    },
    handler: async (request) => {
      const options = request.body;
      const ratios = options.yearly_measurements_ratio + options.dayly_measurements_ratio + options.hourly_measurements_ratio;
      if (ratios > 1 + 1e-9) {
        throw invalid({ loc: ['body'], msg: 'The three measurement ratios must add up to at most 1', type: 'value_error' });
      }
      const sensors = await store.sensors.list();
      if (sensors.length === 0) {
        throw invalid({ loc: ['body'], msg: 'There are no sensors to generate measurements for', type: 'value_error' });
      }
      const perSensor = perSensorCount(options.nb_measurements, sensors.length);
      const at = now();
      const random = seededRandom(Math.floor(Math.random() * 2 ** 32));
      const deleted = await store.transaction(async (tx) => {
        const removed = options.replace ? await tx.measurements.deleteAll() : 0;
        for (const sensor of sensors) {
          const series = randomSeries(sensor, perSensor, options, at, random);
          await tx.measurements.insertSeries(sensor.sensor_id, series.timestamps, series.values);
        }
        return removed;
      });
      // Fresh planner statistics for the table that just changed size; the data is committed
      // already, so a failure here is only worth a warning.
      await store.measurements.analyze().catch((error: unknown) => request.log.warn({ err: error }, 'analyze after generation failed'));
      const generated = perSensor * sensors.length;
      return { message: `Generated ${generated} measurements for ${sensors.length} sensors`, generated, deleted };
    },
  });

  app.delete('/measurements/:measurement_id', {
    config: { access: 'modify' },
    schema: {
      tags,
      summary: 'Delete Measurement',
      operationId: 'deleteMeasurement',
      description:
        'Deletes one measurement by its measurement_id. 204 without a body; 404 when it does not exist. ' +
        "Deleting a sensor's newest measurement makes the one before it the newest (last, actuator state).",
      params: MeasurementIdParams,
      response: { 204: Deleted, ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      const { measurement_id } = request.params;
      if (!(await store.remove.measurement(measurement_id))) throw notFound(`Measurement ${measurement_id} not found`);
      return reply.code(204).send();
    },
  });
};

export default measurementRoutes;
