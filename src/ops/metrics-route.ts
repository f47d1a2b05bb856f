import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Metrics } from '../http/metrics.js';
import { errorResponses } from '../domain/schema-common.js';

const metricsRoutes: FastifyPluginAsyncTypebox<{ metrics: Metrics }> = async (app, { metrics }) => {
  app.get('/metrics', {
    config: { access: 'admin' },
    schema: {
      tags: ['Operations'],
      summary: 'Metrics',
      operationId: 'metrics',
      description:
        'Prometheus text format: requests by method, route pattern (`/measurements/:sensor_id`; every unknown path as ' +
        '`unmatched`) and status with latency histograms, measurements ingested, requests and rows per group commit, ' +
        'open event streams, PostgreSQL pool use, and the process metrics (CPU, memory, event loop lag, GC). Open in AUTH_MODE=open; needs ' +
        'the admin permission (8) in AUTH_MODE=enforced.',
      produces: ['text/plain'],
      response: { 200: Type.String({ description: 'Prometheus exposition format 0.0.4' }), ...errorResponses(401, 403) },
    },
    handler: async (_request, reply) => {
      const text = await metrics.text();
      return reply.type(metrics.registry.contentType).send(text);
    },
  });
};

export default metricsRoutes;
