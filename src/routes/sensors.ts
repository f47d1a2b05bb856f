import { Type } from '@sinclair/typebox';
import { thresholdsInOrder } from '../domain/thresholds.js';
import { type ValidationIssue, invalid, notFound } from '../http/errors.js';
import { CascadeQuery, Deleted, errorResponses } from '../schemas/common.js';
import { PrototypeIdParams } from '../schemas/prototypes.js';
import { Sensor, SensorBase, SensorPatch } from '../schemas/sensors.js';
import { SensorIdParams } from '../schemas/measurements.js';
import { refusedRemoval } from './removal-answer.js';
import type { RouteGroup } from './deps.js';

const tags = ['Sensors'];
const SENSOR_FIELDS = Object.keys(SensorBase.properties) as (keyof SensorBase)[];

/** The current sensor with the patch's known fields laid over it (unknown fields are ignored). */
function mergePatch(current: Sensor, patch: SensorPatch): Sensor {
  const merged: Sensor = { ...current };
  for (const field of SENSOR_FIELDS) {
    if (patch[field] !== undefined) (merged as Record<string, unknown>)[field] = patch[field];
  }
  return merged;
}

function thresholdIssue(loc: (string | number)[]): ValidationIssue {
  return {
    loc,
    msg: 'Thresholds must satisfy critically_low ≤ low ≤ high ≤ critically_high',
    type: 'thresholds_order',
  };
}

const sensorRoutes: RouteGroup = async (app, { store }) => {
  app.post('/sensors/', {
    config: { access: 'modify' },
    schema: {
      tags,
      summary: 'Post Sensor',
      operationId: 'postSensor',
      description: 'Registers a sensor on an existing prototype. 404 when the prototype does not exist.',
      body: SensorBase,
      response: { 200: Sensor, ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      if (!thresholdsInOrder(request.body)) throw invalid(thresholdIssue(['body']));
      // The check and the insert share a transaction, so a concurrent change cannot slip between them.
      const sensor = await store.transaction(async (tx) => {
        if (!(await tx.prototypes.exists(request.body.prototype_id))) {
          throw notFound(`Prototype ${request.body.prototype_id} not found`);
        }
        return tx.sensors.create(request.body);
      });
      return sensor;
    },
  });

  app.get('/sensors/:prototype_id', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Sensors',
      operationId: 'sensors',
      description: "The prototype's sensors, by sensor_id. 404 when the prototype does not exist.",
      params: PrototypeIdParams,
      response: { 200: Type.Array(Sensor), ...errorResponses(404, 422) },
    },
    handler: async (request) => {
      const { prototype_id } = request.params;
      if (!(await store.prototypes.exists(prototype_id))) throw notFound(`Prototype ${prototype_id} not found`);
      return store.sensors.listByPrototype(prototype_id);
    },
  });

  app.patch('/sensors', {
    config: { access: 'modify' },
    schema: {
      tags,
      summary: 'Update Sensors',
      operationId: 'updateSensors',
      description:
        'Partial bulk update: each element names a sensor_id and the fields to change. ' +
        'Thresholds are checked on the merged result. All or nothing: one bad element and nothing is written.',
      body: Type.Array(SensorPatch),
      response: { 200: Type.Array(Sensor), ...errorResponses(404, 422) },
    },
    handler: async (request) => {
      return store.transaction(async (tx) => {
        await tx.sensors.lock(request.body.map((patch) => patch.sensor_id));
        const updated: Sensor[] = [];
        for (const [index, patch] of request.body.entries()) {
          const current = await tx.sensors.get(patch.sensor_id);
          if (!current) throw notFound(`Sensor ${patch.sensor_id} not found`);
          const merged = mergePatch(current, patch);
          if (!thresholdsInOrder(merged)) throw invalid(thresholdIssue(['body', index]));
          if (merged.prototype_id !== current.prototype_id && !(await tx.prototypes.exists(merged.prototype_id))) {
            throw notFound(`Prototype ${merged.prototype_id} not found`);
          }
          updated.push(await tx.sensors.update(merged));
        }
        return updated;
      });
    },
  });

  app.delete('/sensors/:sensor_id', {
    config: { access: 'modify' },
    schema: {
      tags,
      summary: 'Delete Sensor',
      operationId: 'deleteSensor',
      description:
        'Deletes the sensor. 204 without a body; 404 when it does not exist. While it has measurements or actuators: 409 ' +
        'with a detail that counts them, unless cascade=true, which deletes them with it in one transaction.',
      params: SensorIdParams,
      querystring: CascadeQuery,
      response: { 204: Deleted, ...errorResponses(404, 409, 422) },
    },
    handler: async (request, reply) => {
      const { sensor_id } = request.params;
      const result = await store.remove.sensor(sensor_id, request.query.cascade);
      if (result.status === 'missing') throw notFound(`Sensor ${sensor_id} not found`);
      if (result.status === 'has-dependents') throw refusedRemoval(`Sensor ${sensor_id}`, result.dependents);
      return reply.code(204).send();
    },
  });
};

export default sensorRoutes;
