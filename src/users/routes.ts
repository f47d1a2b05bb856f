import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import formbody from '@fastify/formbody';
import { Type } from '@sinclair/typebox';
import { Deleted, errorResponses, Message } from '../domain/schema-common.js';
import { acceptMultipartForms } from '../http/multipart.js';
import { userDocs as docs } from './docs.js';
import {
  DeviceTokenView,
  FORM_CONTENT_TYPES,
  IssuedDeviceToken,
  LoginForm,
  NewDeviceToken,
  NewUser,
  NewUserForm,
  Token,
  TokenEcho,
  TokenIdParams,
  UserChange,
  UsernameParams,
  UserView,
} from './schemas.js';
import type { Auth } from '../auth/index.js';
import { Forbidden } from '../core/errors.js';
import type { Config } from '../config/index.js';
import type { UserService } from './service.js';

const bearer = [{ OAuth2PasswordBearer: [] }];

/**
 * In AUTH_MODE=open nobody says who they are: user administration over HTTP would let anyone make
 * an administrator, take over an account or mint a long-lived token, all of which would keep working
 * after the switch to enforced. Refused before the body is even read; the command line does it.
 */
export const OPEN_MODE_REFUSAL =
  'User administration over HTTP needs AUTH_MODE=enforced (in open mode anyone could make administrators or tokens); ' +
  'in open mode use the command line: sensorhub users … (npm run users -- … in a checkout)';

/** What the user routes are given. */
export interface UserRouteDeps {
  config: Pick<Config, 'authMode' | 'sessionMaxDays'>;
  auth: Auth;
  services: { users: UserService };
}

const userRoutes: FastifyPluginAsyncTypebox<UserRouteDeps> = async (app, { config, auth, services: { users } }) => {
  // The OAuth2 password flow posts HTML forms. Registered inside this plugin only, so every other
  // route keeps refusing form bodies with 415.
  await app.register(formbody);
  /** The onRequest hook of every user-administration and device-token route (§6.1). */
  const enforcedOnly = async () => {
    if (config.authMode !== 'enforced') throw new Forbidden(OPEN_MODE_REFUSAL);
  };
  acceptMultipartForms(app, { fields: 20, fieldSize: 64 * 1024, files: 5, fileSize: 64 * 1024 });

  app.post('/token', {
    config: { access: 'public' },
    schema: {
      ...docs.login(auth.throttle.limits),
      consumes: FORM_CONTENT_TYPES,
      body: LoginForm,
      response: { 200: Token, ...errorResponses(401, 422, 429) },
    },
    handler: (request) => users.login(request.body.username, request.body.password, request.ip),
  });

  app.post('/users/new/', {
    config: { access: 'admin' },
    schema: {
      ...docs.create,
      consumes: FORM_CONTENT_TYPES,
      body: NewUserForm,
      security: bearer,
      response: { 200: Token, ...errorResponses(401, 403, 409, 422) },
    },
    handler: (request) => {
      // Let in by the guard without a token: only the store's first user may be made that way.
      const bootstrap = config.authMode === 'enforced' && !request.principal;
      return users.create(request.body.username, request.body.password, bootstrap, request.principal);
    },
  });

  app.post('/users/logout/', {
    config: { access: 'public' },
    schema: { ...docs.logout, security: bearer, response: { 200: Message, ...errorResponses(401) } },
    handler: async (request) => {
      const principal = await auth.authenticate(request);
      await users.logout(principal);
      return { message: 'Logged out' };
    },
  });

  app.post('/token/refresh', {
    config: { access: 'public' },
    schema: { ...docs.refresh(config.sessionMaxDays), security: bearer, response: { 200: Token, ...errorResponses(401) } },
    handler: async (request) => users.refresh(await auth.authenticate(request)),
  });

  // User administration (§6.1): needs admin in enforced mode (the guard checks it).
  app.get('/users', {
    config: { access: 'admin' },
    onRequest: enforcedOnly,
    schema: { ...docs.list, security: bearer, response: { 200: Type.Array(UserView), ...errorResponses(401, 403) } },
    handler: () => users.list(),
  });

  app.post('/users', {
    config: { access: 'admin' },
    onRequest: enforcedOnly,
    schema: { ...docs.add, security: bearer, body: NewUser, response: { 200: UserView, ...errorResponses(401, 403, 409, 422) } },
    handler: (request) => users.add(request.principal, request.body),
  });

  app.patch('/users/:username', {
    config: { access: 'admin' },
    onRequest: enforcedOnly,
    schema: {
      ...docs.change,
      security: bearer,
      params: UsernameParams,
      body: UserChange,
      response: { 200: UserView, ...errorResponses(401, 403, 404, 409, 422) },
    },
    handler: (request) => users.change(request.principal, request.params.username, request.body),
  });

  app.delete('/users/:username', {
    config: { access: 'admin' },
    onRequest: enforcedOnly,
    schema: {
      ...docs.remove,
      security: bearer,
      params: UsernameParams,
      response: { 204: Deleted, ...errorResponses(401, 403, 404, 409, 422) },
    },
    handler: async (request, reply) => {
      await users.remove(request.principal, request.params.username);
      return reply.code(204).send();
    },
  });

  // Device tokens (§6.1): made by an administrator; listed and revoked by their user (read) or an
  // administrator, with or without read: whoever may make one may also see and revoke it.
  app.post('/users/:username/tokens', {
    config: { access: 'admin' },
    onRequest: enforcedOnly,
    schema: {
      ...docs.issueToken,
      security: bearer,
      params: UsernameParams,
      body: NewDeviceToken,
      response: { 200: IssuedDeviceToken, ...errorResponses(401, 403, 404, 422) },
    },
    handler: (request) =>
      users.issueToken(
        request.principal,
        request.params.username,
        request.body.name,
        request.body.days,
        request.body.prototype_ids ?? null,
      ),
  });

  app.get('/users/:username/tokens', {
    config: { access: ['read', 'admin'] },
    onRequest: enforcedOnly,
    schema: {
      ...docs.listTokens,
      security: bearer,
      params: UsernameParams,
      response: { 200: Type.Array(DeviceTokenView), ...errorResponses(401, 403, 404, 422) },
    },
    handler: (request) => users.listTokens(request.principal, request.params.username),
  });

  app.delete('/tokens/:token_id', {
    config: { access: ['read', 'admin'] },
    onRequest: enforcedOnly,
    schema: {
      ...docs.revokeToken,
      security: bearer,
      params: TokenIdParams,
      response: { 204: Deleted, ...errorResponses(401, 403, 404, 422) },
    },
    handler: async (request, reply) => {
      await users.revokeToken(request.principal, request.params.token_id);
      return reply.code(204).send();
    },
  });

  app.get('/users/items/', {
    config: { access: 'public' },
    schema: { ...docs.items, security: bearer, response: { 200: TokenEcho, ...errorResponses(401) } },
    handler: async (request) => {
      const principal = await auth.authenticate(request);
      return { token: principal.token };
    },
  });
};

export default userRoutes;
