import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Deleted, errorResponses, Id } from '../domain/schema-common.js';
import type { ChannelService } from './channels.js';
import type { AckLinks } from './ack.js';
import type { SendResult } from './senders.js';

const ChannelIdParams = Type.Object({ channel_id: Id() });

const Channel = Type.Object(
  {
    channel_id: Id(),
    type: Type.String(),
    name: Type.String(),
    min_severity: Type.String(),
    prototype_ids: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
    quiet: Type.Union([Type.Object({ from: Type.String(), to: Type.String() }), Type.Null()]),
    escalation: Type.Boolean(),
    to: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
    topic: Type.Optional(Type.String()),
    chat_id: Type.Optional(Type.String()),
    secrets_set: Type.Array(Type.String(), { description: 'The names of the secrets that are set; their values are never shown.' }),
    failing_since: Type.Union([Type.String(), Type.Null()], { description: 'Since when deliveries fail; null while they succeed.' }),
    created_at: Type.String(),
  },
  { title: 'NotificationChannel' },
);

const ChannelInput = Type.Record(Type.String(), Type.Unknown(), {
  title: 'NotificationChannelInput',
  description:
    '`type` (email, ntfy, telegram, pushover, webhook), `name`?, `min_severity`? (warning | critical), `prototype_ids`? (null: all), ' +
    '`quiet`? ({"from": "HH:MM", "to": "HH:MM"} or null), `escalation`? (bool), and by type: email `to`; ntfy `url`, `topic`, `token`?; ' +
    'telegram `bot_token`, `chat_id`; pushover `app_token`, `user_key`; webhook `url`. Secrets are write-only.',
});

const TestResult = Type.Object({ ok: Type.Boolean(), status: Type.Integer(), detail: Type.String() }, { title: 'NotificationTestResult' });

export interface NotificationRouteDeps {
  channels: ChannelService;
  test(channelId: number): Promise<SendResult>;
  links: AckLinks;
}

const TAGS = ['notifications'];

export const notificationRoutes: FastifyPluginAsyncTypebox<NotificationRouteDeps> = async (app, { channels, test, links }) => {
  app.get('/notifications/channels', {
    config: { access: 'admin' },
    schema: {
      tags: TAGS,
      summary: 'The notification channels (secrets never shown)',
      operationId: 'listNotificationChannels',
      response: { 200: Type.Array(Channel) },
    },
    handler: () => channels.list(),
  });

  app.post('/notifications/channels', {
    config: { access: 'admin' },
    schema: {
      tags: TAGS,
      summary: 'Adds a notification channel',
      operationId: 'addNotificationChannel',
      body: ChannelInput,
      response: { 200: Channel, ...errorResponses(404, 422) },
    },
    handler: (request) => channels.create(request.body as Record<string, unknown>),
  });

  app.get('/notifications/channels/:channel_id', {
    config: { access: 'admin' },
    schema: {
      tags: TAGS,
      summary: 'One notification channel',
      operationId: 'getNotificationChannel',
      params: ChannelIdParams,
      response: { 200: Channel, ...errorResponses(404, 422) },
    },
    handler: (request) => channels.get(request.params.channel_id),
  });

  app.patch('/notifications/channels/:channel_id', {
    config: { access: 'admin' },
    schema: {
      tags: TAGS,
      summary: 'Changes a notification channel (a secret left out is kept)',
      operationId: 'changeNotificationChannel',
      params: ChannelIdParams,
      body: ChannelInput,
      response: { 200: Channel, ...errorResponses(404, 422) },
    },
    handler: (request) => channels.update(request.params.channel_id, request.body as Record<string, unknown>),
  });

  app.delete('/notifications/channels/:channel_id', {
    config: { access: 'admin' },
    schema: {
      tags: TAGS,
      summary: 'Removes a notification channel and its waiting messages',
      operationId: 'removeNotificationChannel',
      params: ChannelIdParams,
      response: { 204: Deleted, ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      await channels.remove(request.params.channel_id);
      return reply.code(204).send();
    },
  });

  app.post('/notifications/channels/:channel_id/test', {
    config: { access: 'admin' },
    schema: {
      tags: TAGS,
      summary: 'Sends a test message now and answers what the far end said',
      operationId: 'testNotificationChannel',
      params: ChannelIdParams,
      response: { 200: TestResult, ...errorResponses(404, 422) },
    },
    handler: (request) => test(request.params.channel_id),
  });

  // The acknowledge links: no login (the signed link is the permission), a GET only shows.
  const AckParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
  app.register(async (scoped) => {
    // The page's button posts an empty form; its body is not read.
    scoped.addContentTypeParser('application/x-www-form-urlencoded', (_request, _payload, done) => done(null, undefined));
    scoped.get('/notifications/ack/:token', {
      config: { access: 'public' },
      schema: {
        tags: TAGS,
        summary: 'Shows the alert of an acknowledge link and its Acknowledge button',
        operationId: 'showAcknowledgeLink',
        params: AckParams,
      },
      handler: async (request, reply) => {
        const page = await links.show((request.params as { token: string }).token);
        return reply.code(page.status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page.html);
      },
    });
    scoped.post('/notifications/ack/:token', {
      config: { access: 'public' },
      schema: {
        tags: TAGS,
        summary: 'Acknowledges the alert of a link (once; 410 after)',
        operationId: 'useAcknowledgeLink',
        params: AckParams,
      },
      handler: async (request, reply) => {
        const page = await links.use((request.params as { token: string }).token);
        return reply.code(page.status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page.html);
      },
    });
  });
};
