import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import send from '@fastify/send';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { IMAGE_TYPES } from '../picture/image-type.js';
import { ErrorBody, errorResponses } from '../schemas/common.js';
import { TimelapseConfig, TimelapseIdParams, TimelapseMetadata, TimelapseStatus } from '../schemas/timelapse.js';
import { timelapseConfigIssues } from '../timelapse/rules.js';
import { InvalidInput, NotFound } from '../services/errors.js';
import type { TimelapseService } from '../timelapse/service.js';
import type { RouteDeps } from './deps.js';

const tags = ['Timelapse'];

const json = (schema: object) => ({ 'application/json': { schema } });

const timelapseRoutes: FastifyPluginAsyncTypebox<RouteDeps & { timelapses: TimelapseService }> = async (app, { config, timelapses }) => {
  app.post('/timelapse/start', {
    config: { access: 'modify' },
    schema: {
      tags,
      summary: 'Start Timelapse',
      operationId: 'startTimelapse',
      description:
        "Starts a timelapse: frame n is taken from the camera (GET /picture's source, sharing its captures and " +
        'PICTURE_CACHE_MS) at start + n × frequency, for every n with n × frequency < duration; a late capture does ' +
        'not move the frames after it. A failed capture is skipped and counted in failed_frames; it never ends the ' +
        'timelapse. Every frame has the image type of the first (a frame of another type counts as failed). When ' +
        'the end date comes, ffmpeg assembles the video. 422 for a value that is not a positive whole number, a ' +
        `duration shorter than the frequency, or more frames than TIMELAPSE_MAX_FRAMES (${config.timelapseMaxFrames} ` +
        'here); 409 when a timelapse is already running. A running timelapse resumes after a restart of the ' +
        'service until its end date.',
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
      tags,
      summary: 'Stop Timelapse',
      operationId: 'stopTimelapse',
      description:
        'Stops the running timelapse and answers at once; ffmpeg then assembles the video of the frames taken so ' +
        'far (`ready` turns true when it is done). A capture under way is not waited for. With no timelapse ' +
        'running it changes nothing and answers the status (a second click is not an error).',
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
        tags,
        summary,
        operationId,
        description:
          'Whether a timelapse is running, and the metadata and configuration of the running one, else of the last ' +
          'one started (null when there is none).',
        response: { 200: TimelapseStatus },
      },
      handler: async () => timelapses.status(),
    });
  }

  app.get('/timelapse/latest-frame', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Latest Timelapse Frame',
      operationId: 'latestTimelapseFrame',
      description:
        'The newest frame of the running timelapse (image/jpeg, image/png or image/webp, as the camera gave it), ' +
        'sent with Cache-Control: no-store. 404 when no timelapse is running or it has no frame yet.',
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
      tags,
      summary: 'Timelapses',
      operationId: 'timelapses',
      description: 'Every timelapse kept under TIMELAPSE_DIR, newest first (by start_date).',
      response: { 200: Type.Array(TimelapseMetadata) },
    },
    handler: async () => timelapses.list(),
  });

  app.get('/timelapse/:id/download', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Download Timelapse',
      operationId: 'downloadTimelapse',
      description:
        "The video: H.264 MP4 (yuv420p) at the timelapse's framerate, one frame per frame taken, streamed from disk " +
        'with Content-Length, `Content-Disposition: attachment; filename=timelapse_<id>.mp4`, and range requests ' +
        '(206 with Content-Range; 416 for a range past the end) and conditional requests (ETag, Last-Modified). 404 for an unknown id; 409 while the video is not ' +
        'ready, with a `detail` that says why: still running, being assembled, no frame taken, or ffmpeg missing or ' +
        'failed.',
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
      tags,
      summary: 'Delete Timelapse',
      operationId: 'deleteTimelapse',
      description:
        'Deletes a timelapse with its frames and video; a running one is stopped first (no video is made). 404 for an unknown id.',
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
