import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import send from '@fastify/send';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { IMAGE_TYPES } from '../picture/image-type.js';
import { ErrorBody, errorResponses } from '../schemas/common.js';
import { timelapseDocs as docs } from '../schemas/route-docs.js';
import { TimelapseConfig, TimelapseIdParams, TimelapseMetadata, TimelapseStatus } from '../schemas/timelapse.js';
import { timelapseConfigIssues } from '../timelapse/rules.js';
import { InvalidInput, NotFound } from '../services/errors.js';
import type { TimelapseService } from '../timelapse/service.js';
import type { RouteDeps } from './deps.js';

const json = (schema: object) => ({ 'application/json': { schema } });

const timelapseRoutes: FastifyPluginAsyncTypebox<RouteDeps & { timelapses: TimelapseService }> = async (app, { config, timelapses }) => {
  app.post('/timelapse/start', {
    config: { access: 'modify' },
    schema: {
      ...docs.start(config.timelapseMaxFrames),
      body: TimelapseConfig,
      response: { 200: TimelapseStatus, ...errorResponses(409, 422) },
    },
    handler: async (request) => {
      const issues = timelapseConfigIssues(request.body, config.timelapseMaxFrames);
      if (issues.length > 0) throw new InvalidInput(...issues);
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
      const frame = timelapses.latestFrame();
      const bytes = frame && (await readFile(frame.path).catch(() => undefined));
      if (!frame || !bytes) throw new NotFound('No timelapse frame: no timelapse is running, or it has taken no frame yet');
      return reply.header('Cache-Control', 'no-store').type(frame.type).send(bytes);
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
      const { path } = timelapses.video(id);
      const file = await send(request.raw, `/${basename(path)}`, {
        root: dirname(path),
        contentType: false,
        cacheControl: false,
        dotfiles: 'allow',
        index: false,
      });
      if (file.type !== 'file') {
        file.stream.destroy();
        // Deleted between the look-up and the read.
        if (file.statusCode === 404) throw new NotFound(`Timelapse ${id} not found`);
        // A range past the end (416, with the size in Content-Range) or a failed precondition (412).
        const range = file.headers['Content-Range'];
        if (range) reply.header('Content-Range', range);
        const detail = file.type === 'error' ? file.metadata.error.message : 'Not a file';
        return (reply as FastifyReply).code(file.statusCode).send({ detail });
      }
      // 200, 206 or 304 (a conditional request for the copy the client has).
      return (reply as FastifyReply)
        .code(file.statusCode)
        .headers(file.headers)
        .type('video/mp4')
        .header('Content-Disposition', `attachment; filename=timelapse_${id}.mp4`)
        .send(file.stream);
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
