import { Type } from '@sinclair/typebox';
import type { RouteGroup } from './deps.js';

const opsRoutes: RouteGroup = async (app, { store }) => {
  app.get('/healthz', {
    config: { access: 'public' },
    schema: {
      tags: ['Operations'],
      summary: 'Health',
      operationId: 'health',
      description: '200 when the store answers `select 1` within a second, 503 (within that second) when it does not.',
      response: { 200: Type.Object({ status: Type.Literal('ok') }), 503: Type.Object({ status: Type.String(), detail: Type.String() }) },
    },
    handler: async (_request, reply) => {
      if (await store.ping()) return { status: 'ok' as const };
      return reply.code(503).send({ status: 'unavailable', detail: 'Database unavailable' });
    },
  });
};

export default opsRoutes;
