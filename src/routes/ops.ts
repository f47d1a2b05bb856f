import { Type } from '@sinclair/typebox';
import { PICTURE_HEALTH } from '../picture/health.js';
import { opsDocs as docs } from '../schemas/route-docs.js';
import type { RouteGroup } from './deps.js';

const PictureState = Type.Union(PICTURE_HEALTH.map((state) => Type.Literal(state)));

const opsRoutes: RouteGroup = async (app, { store, services: { pictures } }) => {
  app.get('/healthz', {
    config: { access: 'public' },
    schema: {
      ...docs.health,
      response: {
        200: Type.Object({ status: Type.Literal('ok'), picture: PictureState }),
        503: Type.Object({ status: Type.String(), detail: Type.String(), picture: PictureState }),
      },
    },
    handler: async (_request, reply) => {
      const picture = pictures.health();
      if (await store.ping()) return { status: 'ok' as const, picture };
      return reply.code(503).send({ status: 'unavailable', detail: 'Database unavailable', picture });
    },
  });
};

export default opsRoutes;
