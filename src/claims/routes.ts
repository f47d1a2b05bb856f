import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Actuator, ActuatorIdParams } from '../domain/actuator.js';
import { errorResponses } from '../domain/schema-common.js';
import { actuatorView } from '../core/actuator-view.js';
import { doc } from '../http/route-doc.js';
import type { ManualRuns } from './manual-runs.js';
import { MANUAL_RUN_MAX_SECONDS, MANUAL_RUN_MIN_SECONDS } from './manual.js';

export const ManualRunBody = Type.Object(
  {
    seconds: Type.Number({
      minimum: MANUAL_RUN_MIN_SECONDS,
      maximum: MANUAL_RUN_MAX_SECONDS,
      description: `How long the pump runs, ${MANUAL_RUN_MIN_SECONDS} to ${MANUAL_RUN_MAX_SECONDS} seconds.`,
    }),
  },
  { title: 'ManualRun' },
);

const runDoc = doc(
  'Actuators',
  'Run Actuator Once',
  'runActuatorOnce',
  'Runs the pump once for `seconds` (1 to 60; else 422), by hand: priming a tube, measuring a flow into a cup. The next ' +
    'state read of its controller (GET /actuators/{id}/state; the MQTT state topic for controller mqtt) claims the run ' +
    'and answers activate: true with duration = seconds, once, whatever the reading and the period; the dose is recorded ' +
    'with manual: true and counts like any other. 409, with the reason, while the pump is disabled, paused, locked out, ' +
    'interlocked, its bottle empty or a dose limit reached. A second request before the run replaces the first. ' +
    'Needs permission 4 in enforced mode. Answers the actuator.',
);

const claimRoutes: FastifyPluginAsyncTypebox<{ manualRuns: ManualRuns }> = async (app, { manualRuns }) => {
  app.post('/actuators/:actuator_id/run', {
    config: { access: 'modify' },
    schema: { ...runDoc, params: ActuatorIdParams, body: ManualRunBody, response: { 200: Actuator, ...errorResponses(404, 409, 422) } },
    handler: async (request) => actuatorView(await manualRuns.request(request.params.actuator_id, request.body.seconds)),
  });
};

export default claimRoutes;
