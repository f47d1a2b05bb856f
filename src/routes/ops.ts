import { Type } from '@sinclair/typebox';
import { LINK_STATES } from '../mqtt/link.js';
import { PICTURE_HEALTH } from '../picture/health.js';
import { opsDocs as docs } from '../schemas/route-docs.js';
import type { RouteGroup } from './deps.js';

const PictureState = Type.Union(PICTURE_HEALTH.map((state) => Type.Literal(state)));
const MqttState = Type.Optional(Type.Union(LINK_STATES.map((state) => Type.Literal(state))));

const opsRoutes: RouteGroup = async (app, { store, services: { pictures }, mqttState }) => {
  app.get('/healthz', {
    config: { access: 'public' },
    schema: {
      ...docs.health,
      response: {
        200: Type.Object({ status: Type.Literal('ok'), picture: PictureState, mqtt: MqttState }),
        503: Type.Object({ status: Type.String(), detail: Type.String(), picture: PictureState, mqtt: MqttState }),
      },
    },
    handler: async (_request, reply) => {
      const picture = pictures.health();
      // The broker's link is shown but does not decide the status: HTTP serves without it.
      const mqtt = mqttState?.();
      if (await store.ping()) return { status: 'ok' as const, picture, mqtt };
      return reply.code(503).send({ status: 'unavailable', detail: 'Database unavailable', picture, mqtt });
    },
  });
};

export default opsRoutes;
