import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { dummyHash, hashPassword, verifyPassword } from '../auth/passwords.js';
import { ALL_PERMISSIONS, NEW_USER_PERMISSIONS } from '../auth/permissions.js';
import { conflict, HttpError } from '../http/errors.js';
import { errorResponses, Message } from '../schemas/common.js';
import { LoginForm, NewUserForm, Token, TokenEcho } from '../schemas/users.js';
import type { RouteGroup } from './deps.js';

const tags = ['Users, tokens and picture'];
const bearer = [{ OAuth2PasswordBearer: [] }];

const userRoutes: RouteGroup = async (app, { store, now, auth }) => {
  // The OAuth2 password flow posts HTML forms; only these routes take them.
  await app.register(formbody);
  await app.register(multipart, { attachFieldsToBody: 'keyValues', limits: { fileSize: 1024, files: 0 } });

  const bearerToken = async (username: string, permissions: number) => ({
    access_token: await auth.tokens.issue(username, permissions, now()),
    token_type: 'bearer' as const,
  });

  app.post('/token', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Login For Access Token',
      operationId: 'loginForAccessToken',
      description:
        'OAuth2 password flow. 401 for a wrong username or password (in the same time either way). After 5 failures for one ' +
        'username, or 20 from one address, within 15 minutes, further attempts are refused with 429 until the oldest leaves the window.',
      body: LoginForm,
      response: { 200: Token, ...errorResponses(401, 422, 429) },
    },
    handler: async (request) => {
      const { username, password } = request.body;
      const wait = auth.throttle.retryAfter(username, request.ip, now());
      if (wait > 0) throw new HttpError(429, 'Too many failed logins, try again later', { 'Retry-After': String(wait) });
      const user = await store.users.get(username);
      const ok = await verifyPassword(user?.password_hash ?? (await dummyHash()), password);
      if (!user || !ok) {
        auth.throttle.failed(username, request.ip, now());
        throw new HttpError(401, 'Incorrect username or password', { 'WWW-Authenticate': 'Bearer' });
      }
      auth.throttle.succeeded(username);
      return bearerToken(user.username, user.permissions);
    },
  });

  app.post('/users/new/', {
    config: { access: 'admin' },
    schema: {
      tags,
      summary: 'Create User Access Token',
      operationId: 'createUserAccessToken',
      description:
        'Creates a user (read and modify permissions; the very first user is an administrator with every permission) and ' +
        'returns a token for it. In AUTH_MODE=enforced it needs the admin permission once a user exists.',
      body: NewUserForm,
      security: bearer,
      response: { 201: Token, ...errorResponses(401, 403, 409, 422) },
    },
    handler: async (request, reply) => {
      const { username, password } = request.body;
      const permissions = (await store.users.any()) ? NEW_USER_PERMISSIONS : ALL_PERMISSIONS;
      const user = await store.users.create({ username, password_hash: await hashPassword(password), permissions, created_at: now() });
      if (!user) throw conflict(`Username ${username} is already taken`);
      return reply.code(201).send(await bearerToken(user.username, user.permissions));
    },
  });

  app.post('/users/logout/', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'User Log Out',
      operationId: 'userLogOut',
      description: 'Revokes every token issued to the user up to now (in both access modes it needs a valid token).',
      security: bearer,
      response: { 200: Message, ...errorResponses(401) },
    },
    handler: async (request) => {
      const principal = await auth.authenticate(request);
      await store.users.revokeTokens(principal.username, now());
      return { message: 'Logged out' };
    },
  });

  app.get('/users/items/', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Read Items',
      operationId: 'readItems',
      description: 'Echoes a valid bearer token (in both access modes); 401 otherwise.',
      security: bearer,
      response: { 200: TokenEcho, ...errorResponses(401) },
    },
    handler: async (request) => {
      const principal = await auth.authenticate(request);
      return { token: principal.token };
    },
  });
};

export default userRoutes;
