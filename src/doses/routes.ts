import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Config } from '../config/index.js';
import { actuatorView } from '../core/actuator-view.js';
import { Actuator, ActuatorIdParams } from '../domain/actuator.js';
import { errorResponses } from '../domain/schema-common.js';
import type { DoseBucket } from './dose-buckets.js';
import { doseDocs as docs } from './docs.js';
import { DoseTotals, DoseTotalsQuery, RefillBody } from './schemas.js';
import type { DoseService } from './service.js';

/** What the dose routes are given. */
export interface DoseRouteDeps {
  services: { doses: DoseService };
  config: Pick<Config, 'authMode'>;
}

const totalsJson = (b: DoseBucket): DoseTotals => ({
  start: new Date(b.start).toISOString(),
  end: new Date(b.end).toISOString(),
  doses: b.doses,
  seconds: b.seconds,
  volume_ml: b.volume_ml,
});

const round = (value: number) => Math.round(value * 1000) / 1000;

const doseRoutes: FastifyPluginAsyncTypebox<DoseRouteDeps> = async (app, { services: { doses }, config }) => {
  /** Who made the request, for the refill's record; null in open mode, where nobody says. */
  const whoIs = (request: FastifyRequest) => (config.authMode === 'enforced' ? (request.principal?.username ?? null) : null);

  app.get('/actuators/:actuator_id/doses', {
    config: { access: 'read' },
    schema: {
      ...docs.totals,
      params: ActuatorIdParams,
      querystring: DoseTotalsQuery,
      response: { 200: Type.Array(DoseTotals), ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      const totals = (await doses.totals(request.params.actuator_id, request.query)).map(totalsJson);
      // The usual dosing beside the totals (headers, so the list stays as clients read it).
      const use = await doses.usage(request.params.actuator_id);
      reply.header('usual-amount', use.usual === null ? 'unknown' : String(round(use.usual)));
      reply.header('usual-unit', use.unit);
      reply.header('usual-window', String(use.window));
      reply.header('usual-days', String(use.days));
      reply.header('usual-recent', String(round(use.recent)));
      reply.header('usual-ratio', use.ratio === null ? 'unknown' : String(round(use.ratio)));
      return totals;
    },
  });

  app.post('/actuators/:actuator_id/refill', {
    config: { access: 'modify' },
    schema: { ...docs.refill, params: ActuatorIdParams, body: RefillBody, response: { 200: Actuator, ...errorResponses(404, 422) } },
    handler: async (request) => actuatorView(await doses.refill(request.params.actuator_id, request.body.stock_ml, whoIs(request))),
  });
};

export default doseRoutes;
