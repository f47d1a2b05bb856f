import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { notAuthenticated } from '../auth/authenticate.js';
import { dummyHash, hashPassword, verifyPassword } from '../auth/passwords.js';
import { ALL_PERMISSIONS, NEW_USER_PERMISSIONS } from '../auth/permissions.js';
import type { TokenSubject } from '../auth/tokens.js';
import { conflict, HttpError } from '../http/errors.js';
import { errorResponses, Message } from '../schemas/common.js';
import { FORM_CONTENT_TYPES, LoginForm, NewUserForm, Token, TokenEcho } from '../schemas/users.js';
import type { RouteGroup } from './deps.js';

const tags = ['Users, tokens and picture'];
const bearer = [{ OAuth2PasswordBearer: [] }];

const userRoutes: RouteGroup = async (app, { config, store, now, auth }) => {
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

  const bearerToken = async (user: TokenSubject) => ({
    access_token: await auth.tokens.issue(user, now()),
    token_type: 'bearer' as const,
  });

  const { windowMs, perUsername, perAddress } = auth.throttle.limits;
  app.post('/token', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Login For Access Token',
      operationId: 'loginForAccessToken',
      description:
        'OAuth2 password flow: form fields `username` and `password` (urlencoded or multipart, or the same as JSON; ' +
        '`grant_type`, `scope`, `client_id`, `client_secret` are ignored). 401 for a wrong username or password, in the ' +
        `same time either way. After ${perUsername} failed logins for one username, or ${perAddress} from one address ` +
        `(IPv6: one /64), within ${windowMs / 60_000} minutes, further attempts are refused with 429 and Retry-After ` +
        'until the oldest failure leaves the window; a successful login clears its username\'s failures.',
      consumes: FORM_CONTENT_TYPES,
      body: LoginForm,
      response: { 200: Token, ...errorResponses(401, 422, 429) },
    },
    handler: async (request) => {
      const { username, password } = request.body;
      const admittedAt = now();
      const wait = auth.throttle.admit(username, request.ip, admittedAt);
      if (wait > 0) throw new HttpError(429, 'Too many failed logins, try again later', { 'Retry-After': String(wait) });
      const user = await store.users.get(username);
      // An unknown username is checked against a dummy hash: it takes as long as a wrong password.
      const ok = await verifyPassword(user?.password_hash ?? (await dummyHash()), password);
      if (!user || !ok) throw new HttpError(401, 'Incorrect username or password', { 'WWW-Authenticate': 'Bearer' });
      auth.throttle.succeeded(username, request.ip, admittedAt);
      return bearerToken(user);
    },
  });

  app.post('/users/new/', {
    config: { access: 'admin' },
    schema: {
      tags,
      summary: 'Create User Access Token',
      operationId: 'createUserAccessToken',
      description:
        'Creates a user with the read and modify permissions (2|4) and returns a token for it. Same body forms as /token. ' +
        '409 when the username is taken. In AUTH_MODE=enforced it needs the admin permission once a user exists; while ' +
        'none exists it is open and the user it creates is an administrator with every permission (15); of several first ' +
        'users created at the same moment only one succeeds (the others get 401). In AUTH_MODE=open it never grants admin ' +
        '(anyone who reaches the port may call it): the first administrator is then made with the users command-line tool.',
      consumes: FORM_CONTENT_TYPES,
      body: NewUserForm,
      security: bearer,
      response: { 200: Token, ...errorResponses(401, 403, 409, 422) },
    },
    handler: async (request, reply) => {
      const { username, password } = request.body;
      // Let in by the guard without a token: only the store's first user may be made that way.
      const bootstrap = config.authMode === 'enforced' && !request.principal;
      // In open mode anyone may get here, so the administrator bit is never handed out: a token
      // made now would otherwise still administer users after the switch to enforced.
      const user = await store.users.create({
        username,
        password_hash: await hashPassword(password),
        permissions: NEW_USER_PERMISSIONS,
        firstUserPermissions: config.authMode === 'enforced' ? ALL_PERMISSIONS : NEW_USER_PERMISSIONS,
        onlyIfFirst: bootstrap,
        created_at: now(),
      });
      if (!user) throw bootstrap ? notAuthenticated() : conflict(`Username ${username} is already taken`);
      return await bearerToken(user);
    },
  });

  app.post('/users/logout/', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'User Log Out',
      operationId: 'userLogOut',
      description:
        'Revokes every token issued to the user up to now, device tokens included; tokens issued afterwards work. ' +
        'Needs a valid bearer token in both access modes (any permission), 401 otherwise.',
      security: bearer,
      response: { 200: Message, ...errorResponses(401) },
    },
    handler: async (request) => {
      const principal = await auth.authenticate(request);
      await store.users.revokeTokens(principal.user_id, now());
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
