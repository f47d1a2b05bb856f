import { Type } from '@sinclair/typebox';
import { PICTURE_HEALTH, pictureHealth } from '../picture/health.js';
import type { RouteDeps, RouteGroup } from './deps.js';

const PictureState = Type.Union(PICTURE_HEALTH.map((state) => Type.Literal(state)));

const opsRoutes: RouteGroup = async (app, { store, config }: RouteDeps) => {
  app.get('/healthz', {
    config: { access: 'public' },
    schema: {
      tags: ['Operations'],
      summary: 'Health',
      operationId: 'health',
      description:
        '200 when the store answers `select 1` within a second, 503 (within that second) when it does not. `picture` tells the state of PICTURE_SOURCE: `ok` or ' +
        '`failing` by its last capture, `unknown` before the first, `stuck` while a file capture has run past ' +
        'PICTURE_TIMEOUT_MS without returning (a hung mount; file captures wait until it returns), `none` without a ' +
        'source (uploads are served). A failing camera does not make the service unhealthy: the status code ' +
        'follows the store only, so a load balancer keeps sending traffic to an instance whose camera is down.',
      response: {
        200: Type.Object({ status: Type.Literal('ok'), picture: PictureState }),
        503: Type.Object({ status: Type.String(), detail: Type.String(), picture: PictureState }),
      },
    },
    handler: async (_request, reply) => {
      const picture = pictureHealth(config);
      if (await store.ping()) return { status: 'ok' as const, picture };
      return reply.code(503).send({ status: 'unavailable', detail: 'Database unavailable', picture });
    },
  });
};

export default opsRoutes;
