import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config/index.js';
import { Type } from '@sinclair/typebox';
import {
  ActivationListQuery,
  ActivationRecord,
  Actuator,
  ActuatorActivation,
  ActuatorBase,
  ActuatorIdParams,
  ActuatorPatch,
} from '../domain/actuator.js';
import { Deleted, errorResponses } from '../domain/schema-common.js';
import { PrototypeIdParams } from '../domain/prototype.js';
import { actuatorDocs as docs } from './docs.js';
import { actuatorView as toApi } from '../core/actuator-view.js';
import { doseView } from '../core/dose-view.js';
import { sendJsonText } from '../core/json-text.js';
import type { ActuatorService } from './service.js';
import type { MaybePromise } from '../store/index.js';
import { NotFound } from '../core/errors.js';

/** What the actuator routes are given. */
export interface ActuatorRouteDeps {
  services: {
    actuators: ActuatorService;
    /** A controller's read, with its dose claimed before any activate: true (claims/). */
    claims: { read(actuatorId: number): MaybePromise<{ json: string } | undefined> };
  };
  config: Pick<Config, 'authMode'>;
}

const actuatorRoutes: FastifyPluginAsyncTypebox<ActuatorRouteDeps> = async (app, { services: { actuators, claims }, config }) => {
  /** Who made the request, for the records that name a person; null in open mode, where nobody says. */
  const whoIs = (request: FastifyRequest) => (config.authMode === 'enforced' ? (request.principal?.username ?? null) : null);

  app.post('/actuators', {
    config: { access: 'modify' },
    schema: { ...docs.post, body: ActuatorBase, response: { 200: Actuator, ...errorResponses(404, 422) } },
    handler: async (request) => toApi(await actuators.create(request.body)),
  });

  app.patch('/actuators', {
    config: { access: 'modify' },
    schema: { ...docs.patch, body: Type.Array(ActuatorPatch), response: { 200: Type.Array(Actuator), ...errorResponses(404, 422) } },
    handler: async (request) => (await actuators.patch(request.body, whoIs(request))).map(toApi),
  });

  app.get('/actuators/:actuator_id/state', {
    config: { access: ['read', 'control'] },
    schema: { ...docs.state, params: ActuatorIdParams, response: { 200: ActuatorActivation, ...errorResponses(404, 422) } },
    handler: async (request, reply) => {
      // A decision is only good for the moment it is made: no cache or proxy may replay it.
      reply.header('cache-control', 'no-store');
      // The decision's JSON text is kept with it: no serializing per poll.
      // A decision to run is answered only once its dose is claimed (claims/).
      const answer = await claims.read(request.params.actuator_id);
      if (!answer) throw new NotFound(`Actuator ${request.params.actuator_id} not found`);
      return sendJsonText(reply, answer.json);
    },
  });

  // The controller calls this right after running the pump, with no body, an empty form body or
  // an empty JSON body. A refused report would leave last_activated where it was, and the next poll
  // would answer `activate: true` again: a second dose. So this route reads whatever body comes
  // (within the body limit) and ignores it. The parser is scoped to this plugin: every other route
  // keeps refusing forms and unknown content types with 415.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
    scope.patch('/actuators/:actuator_id/last_activated', {
      config: { access: ['modify', 'control'] },
      schema: { ...docs.lastActivated, params: ActuatorIdParams, response: { 200: Actuator, ...errorResponses(404, 422) } },
      handler: async (request) => toApi(await actuators.markActivated(request.params.actuator_id)),
    });
  });

  app.get('/actuators/:actuator_id/activations', {
    config: { access: 'read' },
    schema: {
      ...docs.activations,
      params: ActuatorIdParams,
      querystring: ActivationListQuery,
      response: { 200: Type.Array(ActivationRecord), ...errorResponses(404, 422) },
    },
    handler: async (request) => (await actuators.activations(request.params.actuator_id, request.query)).map(doseView),
  });

  app.post('/actuators/:actuator_id/unlock', {
    config: { access: 'modify' },
    schema: { ...docs.unlock, params: ActuatorIdParams, response: { 200: Actuator, ...errorResponses(404, 409, 422) } },
    handler: async (request) => toApi(await actuators.unlock(request.params.actuator_id, whoIs(request))),
  });

  app.get('/actuators/:prototype_id', {
    config: { access: ['read', 'control'] },
    schema: { ...docs.byPrototype, params: PrototypeIdParams, response: { 200: Type.Array(Actuator), ...errorResponses(404, 422) } },
    handler: async (request) => (await actuators.listByPrototype(request.params.prototype_id)).map(toApi),
  });

  app.delete('/actuators/:actuator_id', {
    config: { access: 'modify' },
    schema: { ...docs.remove, params: ActuatorIdParams, response: { 204: Deleted, ...errorResponses(404, 422) } },
    handler: async (request, reply) => {
      await actuators.remove(request.params.actuator_id);
      return reply.code(204).send();
    },
  });
};

export default actuatorRoutes;
