import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { activationFor } from '../domain/activation.js';
import { notFound } from '../http/errors.js';
import { Actuator, ActuatorActivation, ActuatorBase, ActuatorIdParams, ActuatorPatch } from '../schemas/actuators.js';
import { Deleted, errorResponses } from '../schemas/common.js';
import { PrototypeIdParams } from '../schemas/prototypes.js';
import type { StoredActuator } from '../store/actuators.js';
import type { RouteGroup } from './deps.js';

const tags = ['Actuators'];
const PATCHABLE = ['actuator_type', 'sensor_id', 'condition_value', 'activation_condition', 'activation_period', 'activation_duration', 'actuator_name', 'enabled'] as const;

const toApi = (a: StoredActuator) => ({ ...a, last_activated: new Date(a.last_activated).toISOString() });

/** The current actuator with the patch's known fields laid over it; last_activated is the service's own. */
function mergePatch(current: StoredActuator, patch: ActuatorPatch): StoredActuator {
  const merged = { ...current } as Record<string, unknown>;
  for (const field of PATCHABLE) if (patch[field] !== undefined) merged[field] = patch[field];
  return merged as unknown as StoredActuator;
}

const actuatorRoutes: RouteGroup = async (app, deps) => {
  const { store, now, config } = deps;

  app.post('/actuators', {
    config: { access: 'modify' },
    schema: {
      tags,
      summary: 'Post Actuator',
      operationId: 'postActuator',
      description: 'Registers a pump on an existing sensor. last_activated starts at the creation time.',
      body: ActuatorBase,
      response: { 200: Actuator, ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      const body = request.body;
      const actuator = await store.transaction(async (tx) => {
        if (!(await tx.sensors.get(body.sensor_id))) throw notFound(`Sensor ${body.sensor_id} not found`);
        return tx.actuators.create({
          ...body,
          actuator_name: body.actuator_name ?? null,
          enabled: body.enabled ?? true,
          last_activated: now(),
        });
      });
      return toApi(actuator);
    },
  });

  app.patch('/actuators', {
    config: { access: 'modify' },
    schema: {
      tags,
      summary: 'Update Actuators',
      operationId: 'updateActuators',
      description:
        'Partial bulk update, all or nothing. Each element names an actuator_id and the fields to change; the whole objects ' +
        'the dashboard sends back are accepted (last_activated is ignored: only the controller moves it).',
      body: Type.Array(ActuatorPatch),
      response: { 200: Type.Array(Actuator), ...errorResponses(404, 422) },
    },
    handler: async (request) => {
      const updated = await store.transaction(async (tx) => {
        await tx.actuators.lock(request.body.map((patch) => patch.actuator_id));
        const out: StoredActuator[] = [];
        for (const patch of request.body) {
          const current = await tx.actuators.get(patch.actuator_id);
          if (!current) throw notFound(`Actuator ${patch.actuator_id} not found`);
          const merged = mergePatch(current, patch);
          if (merged.sensor_id !== current.sensor_id && !(await tx.sensors.get(merged.sensor_id))) {
            throw notFound(`Sensor ${merged.sensor_id} not found`);
          }
          out.push(await tx.actuators.update(merged));
        }
        return out;
      });
      return updated.map(toApi);
    },
  });

  app.get('/actuators/:actuator_id/state', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Get Actuator State',
      operationId: 'getActuatorState',
      description:
        'Whether the pump should run now. The first rule that matches decides (status says which): disabled; no measurement; ' +
        'newest measurement older than STALE_AFTER; less than activation_period seconds since last_activated; duration 0; ' +
        'otherwise "OK" and the condition on the newest value (high: v > condition_value; low: v < condition_value; ' +
        'low_or_high: v ≠ condition_value; always). The newest measurement is the one with the latest timestamp, not the ' +
        'last one posted. Boundaries: a reading exactly STALE_AFTER old is still fresh; a period exactly elapsed allows ' +
        'activation; a value equal to condition_value does not activate high, low or low_or_high. A last_activated in the ' +
        'future (server clock set back) keeps the pump waiting. Sent with Cache-Control: no-store.',
      params: ActuatorIdParams,
      response: { 200: ActuatorActivation, ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      // A decision is only good for the moment it is made: no cache or proxy may replay it.
      reply.header('cache-control', 'no-store');
      const actuator = await store.actuators.get(request.params.actuator_id);
      if (!actuator) throw notFound(`Actuator ${request.params.actuator_id} not found`);
      const latest = await store.measurements.last(actuator.sensor_id);
      return activationFor(actuator, latest, now(), config.staleAfterMs);
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
      schema: {
        tags,
        summary: 'Update Actuator Last Activated',
        operationId: 'updateActuatorLastActivated',
        description:
          'Sets last_activated to now; the controller calls it right after the pump ran. The route takes no body: ' +
          'whatever is sent (nothing, an empty form, empty or even malformed JSON, any content type) is ignored, ' +
          'because refusing the report would make the next state poll answer activate: true again.',
        params: ActuatorIdParams,
        response: { 200: Actuator, ...errorResponses(404, 422) },
      },
      handler: async (request) => {
        const actuator = await store.actuators.markActivated(request.params.actuator_id, now());
        if (!actuator) throw notFound(`Actuator ${request.params.actuator_id} not found`);
        return toApi(actuator);
      },
    });
  });

  app.get('/actuators/:prototype_id', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Actuator',
      operationId: 'actuator',
      description: "The prototype's actuators (those whose sensor belongs to it), by actuator_id.",
      params: PrototypeIdParams,
      response: { 200: Type.Array(Actuator), ...errorResponses(404, 422) },
    },
    handler: async (request) => {
      const { prototype_id } = request.params;
      if (!(await store.prototypes.exists(prototype_id))) throw notFound(`Prototype ${prototype_id} not found`);
      return (await store.actuators.listByPrototype(prototype_id)).map(toApi);
    },
  });

  app.delete('/actuators/:actuator_id', {
    config: { access: 'modify' },
    schema: {
      tags,
      summary: 'Delete Actuator',
      operationId: 'deleteActuator',
      description: 'Deletes the actuator. 204 without a body; 404 when it does not exist. Its controller then gets 404 for its state.',
      params: ActuatorIdParams,
      response: { 204: Deleted, ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      const { actuator_id } = request.params;
      if (!(await store.remove.actuator(actuator_id))) throw notFound(`Actuator ${actuator_id} not found`);
      return reply.code(204).send();
    },
  });
};

export default actuatorRoutes;
