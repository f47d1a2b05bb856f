import { Type } from '@sinclair/typebox';
import { conflict, notFound } from '../http/errors.js';
import { CascadeQuery, Deleted, errorResponses } from '../schemas/common.js';
import { Prototype, PrototypeIdParams } from '../schemas/prototypes.js';
import { refusedRemoval } from './removal-answer.js';
import type { RouteGroup } from './deps.js';

const tags = ['Prototypes'];

const prototypeRoutes: RouteGroup = async (app, { store }) => {
  app.get('/prototypes', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Prototypes',
      operationId: 'prototypes',
      description: 'All prototypes, by prototype_id.',
      response: { 200: Type.Array(Prototype) },
    },
    handler: () => store.prototypes.list(),
  });

  app.post('/prototypes', {
    config: { access: 'modify' },
    schema: {
      tags,
      summary: 'Post Prototype',
      operationId: 'postPrototype',
      description: 'Creates a prototype with the id the client chose. 409 when the id is taken.',
      body: Prototype,
      response: { 200: Prototype, ...errorResponses(409, 422) },
    },
    handler: async (request, reply) => {
      const created = await store.prototypes.create(request.body);
      if (!created) throw conflict(`Prototype ${request.body.prototype_id} already exists`);
      return created;
    },
  });

  app.get('/prototypes/:prototype_id', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Prototype',
      operationId: 'prototype',
      params: PrototypeIdParams,
      response: { 200: Prototype, ...errorResponses(404, 422) },
    },
    handler: async (request) => {
      const prototype = await store.prototypes.get(request.params.prototype_id);
      if (!prototype) throw notFound(`Prototype ${request.params.prototype_id} not found`);
      return prototype;
    },
  });

  app.delete('/prototypes/:prototype_id', {
    config: { access: 'modify' },
    schema: {
      tags,
      summary: 'Delete Prototype',
      operationId: 'deletePrototype',
      description:
        'Deletes the prototype. 204 without a body; 404 when it does not exist. While it has sensors: 409 with a detail ' +
        'that counts its sensors, actuators and measurements, unless cascade=true, which deletes all of them with it in ' +
        'one transaction. The default prototype 0 is not special: deleted, it is not created again.',
      params: PrototypeIdParams,
      querystring: CascadeQuery,
      response: { 204: Deleted, ...errorResponses(404, 409, 422) },
    },
    handler: async (request, reply) => {
      const { prototype_id } = request.params;
      const result = await store.remove.prototype(prototype_id, request.query.cascade);
      if (result.status === 'missing') throw notFound(`Prototype ${prototype_id} not found`);
      if (result.status === 'has-dependents') throw refusedRemoval(`Prototype ${prototype_id}`, result.dependents);
      return reply.code(204).send();
    },
  });
};

export default prototypeRoutes;
