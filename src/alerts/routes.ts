import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuthMode } from '../config/index.js';
import { Alert, AlertIdParams, AlertListQuery, PrototypeStatus } from '../domain/alert.js';
import { errorResponses } from '../domain/schema-common.js';
import { PrototypeIdParams } from '../domain/prototype.js';
import { alertDocs as docs } from './docs.js';
import type { AlertService } from './service.js';

export interface AlertRouteDeps {
  alerts: AlertService;
  authMode: AuthMode;
}

const alertRoutes: FastifyPluginAsyncTypebox<AlertRouteDeps> = async (app, { alerts, authMode }) => {
  app.get('/alerts', {
    config: { access: 'read' },
    schema: { ...docs.list, querystring: AlertListQuery, response: { 200: Type.Array(Alert), ...errorResponses(422) } },
    handler: (request) => {
      const { state = 'active', prototype_id, sensor_id, limit = 100, before } = request.query;
      return alerts.list({ state, prototypeId: prototype_id, sensorId: sensor_id, limit, before });
    },
  });

  app.get('/alerts/:alert_id', {
    config: { access: 'read' },
    schema: { ...docs.get, params: AlertIdParams, response: { 200: Alert, ...errorResponses(404, 422) } },
    handler: (request) => alerts.get(request.params.alert_id),
  });

  app.post('/alerts/:alert_id/acknowledge', {
    config: { access: 'modify' },
    schema: { ...docs.acknowledge, params: AlertIdParams, response: { 200: Alert, ...errorResponses(404, 422) } },
    handler: (request) =>
      alerts.acknowledge(request.params.alert_id, authMode === 'enforced' ? (request.principal?.username ?? null) : null),
  });

  app.get('/prototypes/:prototype_id/status', {
    config: { access: 'read' },
    schema: { ...docs.status, params: PrototypeIdParams, response: { 200: PrototypeStatus, ...errorResponses(404, 422) } },
    handler: (request) => alerts.status(request.params.prototype_id),
  });
};

export default alertRoutes;
