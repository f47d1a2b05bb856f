import { Type } from '@sinclair/typebox';
import { conflict, notFound } from '../http/errors.js';
import { errorResponses } from '../schemas/common.js';
import { Prototype, PrototypeIdParams } from '../schemas/prototypes.js';
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
      response: { 201: Prototype, ...errorResponses(409, 422) },
    },
    handler: async (request, reply) => {
      const created = await store.prototypes.create(request.body);
      if (!created) throw conflict(`Prototype ${request.body.prototype_id} already exists`);
      return reply.code(201).send(created);
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
};

export default prototypeRoutes;
