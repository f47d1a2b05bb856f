import { Type } from '@sinclair/typebox';
import { CascadeQuery, Deleted, errorResponses } from '../schemas/common.js';
import { Prototype, PrototypeIdParams } from '../schemas/prototypes.js';
import { prototypeDocs as docs } from '../schemas/route-docs.js';
import type { RouteGroup } from './deps.js';

const prototypeRoutes: RouteGroup = async (app, { services: { prototypes } }) => {
  app.get('/prototypes', {
    config: { access: 'read' },
    schema: { ...docs.list, response: { 200: Type.Array(Prototype) } },
    handler: () => prototypes.list(),
  });

  app.post('/prototypes', {
    config: { access: 'modify' },
    schema: { ...docs.post, body: Prototype, response: { 200: Prototype, ...errorResponses(409, 422) } },
    handler: (request) => prototypes.create(request.body),
  });

  app.get('/prototypes/:prototype_id', {
    config: { access: 'read' },
    schema: { ...docs.get, params: PrototypeIdParams, response: { 200: Prototype, ...errorResponses(404, 422) } },
    handler: (request) => prototypes.get(request.params.prototype_id),
  });

  app.delete('/prototypes/:prototype_id', {
    config: { access: 'modify' },
    schema: {
      ...docs.remove,
      params: PrototypeIdParams,
      querystring: CascadeQuery,
      response: { 204: Deleted, ...errorResponses(404, 409, 422) },
    },
    handler: async (request, reply) => {
      await prototypes.remove(request.params.prototype_id, request.query.cascade);
      return reply.code(204).send();
    },
  });
};

export default prototypeRoutes;
