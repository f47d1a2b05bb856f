import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sendJsonText } from '../core/json-text.js';
import { errorResponses } from '../domain/schema-common.js';
import { SensorIdParams } from '../domain/measurement.js';
import { historyDocs as docs } from './docs.js';
import { AggregateBucket, AggregateQuery } from './schemas.js';
import type { HistoryService } from './service.js';

/** What the history routes are given. */
export interface HistoryRouteDeps {
  services: { history: HistoryService };
}

const historyRoutes: FastifyPluginAsyncTypebox<HistoryRouteDeps> = async (app, { services: { history } }) => {
  app.get('/measurements/:sensor_id/aggregate', {
    config: { access: 'read' },
    schema: {
      ...docs.aggregate,
      params: SensorIdParams,
      querystring: AggregateQuery,
      response: { 200: Type.Array(AggregateBucket), ...errorResponses(404, 422) },
    },
    // A year of hourly buckets is 8,760 of them: written straight as JSON text in the documented shape.
    handler: async (request, reply) => sendJsonText(reply, await history.aggregateJson(request.params.sensor_id, request.query)),
  });
};

export default historyRoutes;
