import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { errorResponses, Message } from '../schemas/common.js';
import { userDocs as docs } from '../schemas/route-docs.js';
import { FORM_CONTENT_TYPES, LoginForm, NewUserForm, Token, TokenEcho } from '../schemas/users.js';
import type { RouteGroup } from './deps.js';

const bearer = [{ OAuth2PasswordBearer: [] }];

const userRoutes: RouteGroup = async (app, { config, auth, services: { users } }) => {
  // The OAuth2 password flow posts HTML forms. Registered inside this plugin only, so every other
  // route keeps refusing form bodies with 415.
  await app.register(formbody);
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    // A file part is an unknown field like any other: read past and ignored.
    onFile: async (part) => {
      for await (const _chunk of part.file);
    },
    limits: { fields: 20, fieldSize: 64 * 1024, files: 5, fileSize: 64 * 1024 },
  });

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
      return users.create(request.body.username, request.body.password, bootstrap);
    },
  });

  app.post('/users/logout/', {
    config: { access: 'public' },
    schema: { ...docs.logout, security: bearer, response: { 200: Message, ...errorResponses(401) } },
    handler: async (request) => {
      const principal = await auth.authenticate(request);
      await users.logout(principal.user_id);
      return { message: 'Logged out' };
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
