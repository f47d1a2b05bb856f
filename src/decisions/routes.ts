import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NotFound } from '../core/errors.js';
import { windowOf } from '../core/window.js';
import { parseDateTime } from '../domain/date-time.js';
import { ActuatorIdParams } from '../domain/actuator.js';
import { errorResponses } from '../domain/schema-common.js';
import { doc } from '../http/route-doc.js';
import type { Store, StoredDecision } from '../store/index.js';
import { DecisionChange, DecisionListQuery } from './schemas.js';

export interface DecisionRouteDeps {
  store: Pick<Store, 'actuators' | 'decisions'>;
  now: () => number;
}

const changeJson = (row: StoredDecision): DecisionChange => ({
  at: new Date(row.at).toISOString(),
  reason: row.reason,
  status: row.status,
  activate: row.activate,
  by: row.by,
});

const listDoc = doc(
  'Actuators',
  'List Decision Changes',
  'listDecisionChanges',
  'Why a pump did or did not run at any moment: every change of the actuator’s decision reason, newest first, with ' +
    'its status then, whether it would have run, and who caused it where a person did. A change is recorded once ' +
    'when it happens (a hold beginning or ending, a period elapsing), not at every poll. The reason in force at an ' +
    'instant is that of the newest change at or before it. Kept as long as the actuator. 404 for an unknown ' +
    'actuator; 422 for a bad window, limit or before.',
);

const decisionRoutes: FastifyPluginAsyncTypebox<DecisionRouteDeps> = async (app, { store, now }) => {
  app.get('/actuators/:actuator_id/decisions', {
    config: { access: 'read' },
    schema: {
      ...listDoc,
      params: ActuatorIdParams,
      querystring: DecisionListQuery,
      response: { 200: Type.Array(DecisionChange), ...errorResponses(404, 422) },
    },
    handler: async (request) => {
      const { actuator_id: id } = request.params;
      const { start_time, end_time, limit, before } = request.query;
      const window = windowOf({ start_time, end_time }, now());
      if (!(await store.actuators.get(id))) throw new NotFound(`Actuator ${id} not found`);
      const rows = await store.decisions.list(id, window, limit ?? 100, before === undefined ? undefined : parseDateTime(before));
      return rows.map(changeJson);
    },
  });
};

export default decisionRoutes;
