import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Config } from '../config/index.js';
import { CascadeQuery, Deleted, errorResponses, RemovalRefusedBody } from '../domain/schema-common.js';
import { SensorIdParams } from '../domain/measurement.js';
import { PrototypeIdParams } from '../domain/prototype.js';
import { Sensor, SensorBase, SensorPatch } from '../domain/sensor.js';
import { sensorDocs as docs } from './docs.js';
import type { SensorService } from './service.js';

/** What the sensor routes are given. */
export interface SensorRouteDeps {
  services: { sensors: SensorService };
  config: Pick<Config, 'authMode'>;
}

const sensorRoutes: FastifyPluginAsyncTypebox<SensorRouteDeps> = async (app, { services: { sensors }, config }) => {
  /** Who made the request, for the settings audit; null in open mode, where nobody says. */
  const whoIs = (request: FastifyRequest) => (config.authMode === 'enforced' ? (request.principal?.username ?? null) : null);

  app.post('/sensors/', {
    config: { access: 'modify' },
    schema: { ...docs.post, body: SensorBase, response: { 200: Sensor, ...errorResponses(404, 422) } },
    handler: (request) => sensors.create(request.body),
  });

  app.get('/sensors/:prototype_id', {
    config: { access: 'read' },
    schema: { ...docs.byPrototype, params: PrototypeIdParams, response: { 200: Type.Array(Sensor), ...errorResponses(404, 422) } },
    handler: (request) => sensors.listByPrototype(request.params.prototype_id),
  });

  app.patch('/sensors', {
    config: { access: 'modify' },
    schema: { ...docs.patch, body: Type.Array(SensorPatch), response: { 200: Type.Array(Sensor), ...errorResponses(404, 422) } },
    handler: (request) => sensors.patch(request.body, whoIs(request)),
  });

  app.delete('/sensors/:sensor_id', {
    config: { access: 'modify' },
    schema: {
      ...docs.remove,
      params: SensorIdParams,
      querystring: CascadeQuery,
      response: { 204: Deleted, 409: Type.Ref(RemovalRefusedBody), ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      await sensors.remove(request.params.sensor_id, request.query.cascade);
      return reply.code(204).send();
    },
  });
};

export default sensorRoutes;
