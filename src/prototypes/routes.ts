import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config/index.js';
import { Type } from '@sinclair/typebox';
import { CascadeQuery, Deleted, errorResponses, RemovalRefusedBody } from '../domain/schema-common.js';
import { Pause, PauseBody, Prototype, PrototypeBase, PrototypeIdParams, PrototypeRename } from '../domain/prototype.js';
import { prototypeDocs as docs } from './docs.js';
import type { PrototypeService } from './service.js';

/** What the prototype routes are given. */
export interface PrototypeRouteDeps {
  services: { prototypes: PrototypeService };
  config: Pick<Config, 'authMode'>;
}

const prototypeRoutes: FastifyPluginAsyncTypebox<PrototypeRouteDeps> = async (app, { services: { prototypes }, config }) => {
  /** Who made the request, for the journal's record of a pause; null in open mode, where nobody says. */
  const whoIs = (request: FastifyRequest) => (config.authMode === 'enforced' ? (request.principal?.username ?? null) : null);

  app.get('/prototypes', {
    config: { access: 'read' },
    schema: { ...docs.list, response: { 200: Type.Array(Prototype) } },
    handler: () => prototypes.list(),
  });

  app.post('/prototypes', {
    config: { access: 'modify' },
    schema: { ...docs.post, body: PrototypeBase, response: { 200: Prototype, ...errorResponses(409, 422) } },
    handler: (request) => prototypes.create(request.body),
  });

  app.get('/prototypes/:prototype_id', {
    config: { access: 'read' },
    schema: { ...docs.get, params: PrototypeIdParams, response: { 200: Prototype, ...errorResponses(404, 422) } },
    handler: (request) => prototypes.get(request.params.prototype_id),
  });

  app.patch('/prototypes/:prototype_id', {
    config: { access: 'modify' },
    schema: { ...docs.rename, params: PrototypeIdParams, body: PrototypeRename, response: { 200: Prototype, ...errorResponses(404, 422) } },
    handler: (request) => prototypes.rename(request.params.prototype_id, request.body.prototype_name),
  });

  app.post('/prototypes/:prototype_id/pause', {
    config: { access: 'modify' },
    schema: { ...docs.pause, params: PrototypeIdParams, body: PauseBody, response: { 200: Pause, ...errorResponses(404, 422) } },
    handler: (request) => prototypes.pause(request.params.prototype_id, request.body, whoIs(request)),
  });

  app.delete('/prototypes/:prototype_id/pause', {
    config: { access: 'modify' },
    schema: { ...docs.resume, params: PrototypeIdParams, response: { 204: Deleted, ...errorResponses(404, 422) } },
    handler: async (request, reply) => {
      await prototypes.resume(request.params.prototype_id, whoIs(request));
      return reply.code(204).send();
    },
  });

  app.delete('/prototypes/:prototype_id', {
    config: { access: 'modify' },
    schema: {
      ...docs.remove,
      params: PrototypeIdParams,
      querystring: CascadeQuery,
      response: { 204: Deleted, 409: Type.Ref(RemovalRefusedBody), ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      await prototypes.remove(request.params.prototype_id, request.query.cascade);
      return reply.code(204).send();
    },
  });
};

export default prototypeRoutes;
