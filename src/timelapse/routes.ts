import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { IMAGE_TYPES } from '../picture/image-type.js';
import { ErrorBody, errorResponses } from '../domain/schema-common.js';
import { timelapseDocs as docs } from './docs.js';
import { TimelapseConfig, TimelapseIdParams, TimelapseMetadata, TimelapseStatus } from './schemas.js';
import type { TimelapseService } from './service.js';
import type { Config } from '../config/index.js';

const json = (schema: object) => ({ 'application/json': { schema } });

/** What the timelapse routes are given. */
export interface TimelapseRouteDeps {
  config: Pick<Config, 'timelapseMaxFrames' | 'timelapseMaxBytes'>;
  timelapses: TimelapseService;
}

const timelapseRoutes: FastifyPluginAsyncTypebox<TimelapseRouteDeps> = async (app, { config, timelapses }) => {
  app.post('/timelapse/start', {
    config: { access: 'modify' },
    schema: {
      ...docs.start(config.timelapseMaxFrames, config.timelapseMaxBytes),
      body: TimelapseConfig,
      response: { 200: TimelapseStatus, ...errorResponses(409, 422, 507) },
    },
    handler: async (request) => {
      await timelapses.start(request.body);
      return timelapses.status();
    },
  });

  app.post('/timelapse/stop', {
    config: { access: 'modify' },
    schema: {
      ...docs.stop,
      response: { 200: TimelapseStatus },
    },
    handler: async () => {
      await timelapses.stop();
      return timelapses.status();
    },
  });

  for (const [path, summary, operationId] of [
    ['/timelapse/status', 'Timelapse Status', 'timelapseStatus'],
    ['/timelapse/frame-info', 'Timelapse Frame Info', 'timelapseFrameInfo'],
  ] as const) {
    app.get(path, {
      config: { access: 'read' },
      schema: {
        ...docs.status(summary, operationId),
        response: { 200: TimelapseStatus },
      },
      handler: async () => timelapses.status(),
    });
  }

  app.get('/timelapse/latest-frame', {
    config: { access: 'read' },
    schema: {
      ...docs.latestFrame,
      response: {
        200: {
          description: 'The image bytes.',
          content: Object.fromEntries(IMAGE_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
        },
        404: { description: 'No frame.', content: json(Type.Ref(ErrorBody)) },
      },
    },
    handler: async (_request, reply) => {
      const frame = await timelapses.latestFrame();
      return reply.header('Cache-Control', 'no-store').type(frame.type).send(frame.bytes);
    },
  });

  app.get('/timelapse', {
    config: { access: 'read' },
    schema: {
      ...docs.list,
      response: { 200: Type.Array(TimelapseMetadata) },
    },
    handler: async () => timelapses.list(),
  });

  app.get('/timelapse/:id/download', {
    config: { access: 'read' },
    schema: {
      ...docs.download,
      params: TimelapseIdParams,
      response: {
        200: { description: 'The video.', content: { 'video/mp4': { schema: { type: 'string', format: 'binary' } } } },
        206: {
          description: 'The requested range of the video.',
          content: { 'video/mp4': { schema: { type: 'string', format: 'binary' } } },
        },
        ...errorResponses(404, 409, 412, 416),
      },
    },
    handler: async (request, reply) => {
      const { id } = request.params;
      const video = await timelapses.video(id, request.raw);
      if (video.kind === 'refused') {
        // A range past the end (416, with the size in Content-Range) or a failed precondition (412).
        if (video.contentRange) reply.header('Content-Range', video.contentRange);
        return (reply as FastifyReply).code(video.status).send({ detail: video.detail });
      }
      // 200, 206 or 304 (a conditional request for the copy the client has).
      return (reply as FastifyReply)
        .code(video.status)
        .headers(video.headers)
        .type('video/mp4')
        .header('Content-Disposition', `attachment; filename=timelapse_${id}.mp4`)
        .send(video.stream);
    },
  });

  app.delete('/timelapse/:id', {
    config: { access: 'modify' },
    schema: {
      ...docs.remove,
      params: TimelapseIdParams,
      response: { 204: { description: 'Deleted.', type: 'null' }, ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      await timelapses.remove(request.params.id);
      return reply.code(204).send();
    },
  });
};

export default timelapseRoutes;
