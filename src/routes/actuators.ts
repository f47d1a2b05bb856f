import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Actuator, ActuatorActivation, ActuatorBase, ActuatorIdParams, ActuatorPatch } from '../schemas/actuators.js';
import { Deleted, errorResponses } from '../schemas/common.js';
import { PrototypeIdParams } from '../schemas/prototypes.js';
import { actuatorDocs as docs } from '../schemas/route-docs.js';
import type { StoredActuator } from '../store/index.js';
import type { RouteGroup } from './deps.js';

const toApi = (a: StoredActuator): Actuator => ({ ...a, last_activated: new Date(a.last_activated).toISOString() });

const actuatorRoutes: RouteGroup = async (app, { services: { actuators } }) => {
  app.post('/actuators', {
    config: { access: 'modify' },
    schema: { ...docs.post, body: ActuatorBase, response: { 200: Actuator, ...errorResponses(404, 422) } },
    handler: async (request) => toApi(await actuators.create(request.body)),
  });

  app.patch('/actuators', {
    config: { access: 'modify' },
    schema: { ...docs.patch, body: Type.Array(ActuatorPatch), response: { 200: Type.Array(Actuator), ...errorResponses(404, 422) } },
    handler: async (request) => (await actuators.patch(request.body)).map(toApi),
  });

  app.get('/actuators/:actuator_id/state', {
    config: { access: 'read' },
    schema: { ...docs.state, params: ActuatorIdParams, response: { 200: ActuatorActivation, ...errorResponses(404, 422) } },
    handler: async (request, reply) => {
      // A decision is only good for the moment it is made: no cache or proxy may replay it.
      reply.header('cache-control', 'no-store');
      return actuators.state(request.params.actuator_id);
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
      config: { access: 'modify' },
      schema: { ...docs.lastActivated, params: ActuatorIdParams, response: { 200: Actuator, ...errorResponses(404, 422) } },
      handler: async (request) => toApi(await actuators.markActivated(request.params.actuator_id)),
    });
  });

  app.get('/actuators/:prototype_id', {
    config: { access: 'read' },
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
