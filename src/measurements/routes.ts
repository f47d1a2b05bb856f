import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { isoOf } from '../domain/date-time.js';
import { jsonArray, measurementArrayJson, measurementJson, sendJsonText } from '../core/json-text.js';
import { Deleted, errorResponses } from '../domain/schema-common.js';
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
} from '../domain/measurement.js';
import { measurementDocs as docs } from './docs.js';
import type { StoredMeasurement } from '../store/index.js';
import type { MeasurementService } from './service.js';

const toMeasurement = (m: StoredMeasurement): Measurement => ({
  measurement_id: m.measurement_id,
  sensor_id: m.sensor_id,
  value: m.value,
  timestamp: isoOf(m.timestamp),
});

/** What the measurement routes are given. */
export interface MeasurementRouteDeps {
  services: { measurements: MeasurementService };
}

const measurementRoutes: FastifyPluginAsyncTypebox<MeasurementRouteDeps> = async (app, { services: { measurements } }) => {
  app.post('/measurements', {
    config: { access: 'post_measurements' },
    schema: {
      ...docs.post,
      body: MeasurementBody,
      response: { 200: Type.Union([Measurement, Type.Array(Measurement)]), ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      const batch = Array.isArray(request.body);
      const stored = await measurements.record(batch ? (request.body as MeasurementBase[]) : [request.body as MeasurementBase], batch);
      // Written straight as JSON text in the documented shape: a batch is the hot path of ingest,
      // and the schema serializer would test each item against both branches of the union.
      return sendJsonText(reply, batch ? measurementArrayJson(stored) : measurementJson(stored[0]));
    },
  });

  app.get('/measurements/export', {
    config: { access: 'read' },
    schema: { ...docs.export, querystring: ExportQuery, produces: ['text/csv'], response: errorResponses(422) },
    handler: async (request, reply) => {
      const lines = await measurements.exportCsv(request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="all_sensors_measurements.csv"')
        .send(Readable.from(lines, { objectMode: false }));
    },
  });

  app.get('/measurements/:sensor_id', {
    config: { access: 'read' },
    schema: {
      ...docs.window,
      params: SensorIdParams,
      querystring: WindowQuery,
      response: { 200: Type.Array(Measurement), ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      const answer = await measurements.window(request.params.sensor_id, request.query);
      if ('rows' in answer) return answer.rows.map(toMeasurement);
      if ('text' in answer) return sendJsonText(reply, answer.text);
      // More than a page: the array is streamed as it is read.
      return sendJsonText(reply, Readable.from(jsonArray(answer.pages)));
    },
  });

  app.get('/measurements/:sensor_id/last', {
    config: { access: 'read' },
    schema: { ...docs.last, params: SensorIdParams, response: { 200: Measurement, ...errorResponses(404, 422) } },
    handler: async (request) => toMeasurement(await measurements.last(request.params.sensor_id)),
  });

  app.post('/Measurement/Random', {
    config: { access: 'modify' },
    schema: { ...docs.random, body: RandomMeasurements, response: { 200: RandomResult, ...errorResponses(409, 422) } },
    preValidation: async (request) => {
      // An empty body takes every default: the validator fills them in on an empty object.
      if (request.body === undefined || request.body === null) request.body = {} as RandomMeasurements;
    },
    handler: async (request) => {
      const { generated, deleted, sensors } = await measurements.generate(request.body);
      return { message: `Generated ${generated} measurements for ${sensors} sensors`, generated, deleted };
    },
  });

  app.delete('/measurements/:measurement_id', {
    config: { access: 'modify' },
    schema: { ...docs.remove, params: MeasurementIdParams, response: { 204: Deleted, ...errorResponses(404, 422) } },
    handler: async (request, reply) => {
      await measurements.remove(request.params.measurement_id);
      return reply.code(204).send();
    },
  });
};

export default measurementRoutes;
