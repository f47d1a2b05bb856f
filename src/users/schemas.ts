import { Type } from '@sinclair/typebox';

const oauthExtras = {
  grant_type: Type.Optional(Type.String({ description: 'Ignored (OAuth2 password flow: "password").' })),
  scope: Type.Optional(Type.String({ description: 'Ignored.' })),
  client_id: Type.Optional(Type.String({ description: 'Ignored.' })),
  client_secret: Type.Optional(Type.String({ description: 'Ignored.' })),
};

/** No control characters: a name is something a person types and reads (and PostgreSQL text holds no NUL). */
const PRINTABLE = '^[^\\u0000-\\u001F\\u007F]*$';
/** The rules of a new username, shared with the users command line. */
export const USERNAME = { maxLength: 64, printable: new RegExp(PRINTABLE) };
/** The shortest password a new user may have. */
export const MIN_PASSWORD_LENGTH = 8;

export const LoginForm = Type.Object(
  {
    username: Type.String({
      minLength: 1,
      maxLength: USERNAME.maxLength,
      pattern: PRINTABLE,
      description: '1 to 64 characters, as for /users/new/.',
    }),
    password: Type.String({ minLength: 1 }),
    ...oauthExtras,
  },
  { title: 'Body_login_for_access_token_token_post', description: 'Form fields (urlencoded or multipart), or the same as JSON.' },
);

export const NewUserForm = Type.Object(
  {
    username: Type.String({
      minLength: 1,
      maxLength: USERNAME.maxLength,
      pattern: PRINTABLE,
      description: '1 to 64 characters, no control characters.',
    }),
    password: Type.String({ minLength: MIN_PASSWORD_LENGTH, description: `At least ${MIN_PASSWORD_LENGTH} characters.` }),
    ...oauthExtras,
  },
  { title: 'Body_create_user_access_token_users_new__post', description: 'Form fields (urlencoded or multipart), or the same as JSON.' },
);

/** The content types the two OAuth2 form routes take (listed in the OpenAPI document). */
export const FORM_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'];

export const Token = Type.Object({ access_token: Type.String(), token_type: Type.Literal('bearer') }, { title: 'Token' });

export const TokenEcho = Type.Object({ token: Type.String() });

/** The longest a device token may be valid: ten years, longer than a device lives (shared with the users command line). */
export const MAX_TOKEN_DAYS = 3650;

const Username = Type.String({
  minLength: 1,
  maxLength: USERNAME.maxLength,
  pattern: PRINTABLE,
  description: '1 to 64 characters, no control characters.',
});
const Password = Type.String({ minLength: MIN_PASSWORD_LENGTH, description: `At least ${MIN_PASSWORD_LENGTH} characters.` });

/** Permissions as bits or as names; unknown names are refused (422) by the service. */
export const PermissionsInput = Type.Union(
  [
    Type.Integer({ minimum: 0, maximum: 31, description: 'Bits: 1 post_measurements, 2 read, 4 modify, 8 admin, 16 control.' }),
    Type.Array(Type.String({ examples: ['read'] }), {
      maxItems: 16,
      description: 'Names: post_measurements, read, modify, admin, control.',
    }),
  ],
  { examples: [['read', 'modify']] },
);

export const UserView = Type.Object(
  {
    username: Type.String(),
    permissions: Type.Integer({ description: 'Bits: 1 post_measurements, 2 read, 4 modify, 8 admin, 16 control.' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'User' },
);

export const NewUser = Type.Object({ username: Username, password: Password, permissions: PermissionsInput }, { title: 'NewUser' });

export const UserChange = Type.Object(
  { permissions: Type.Optional(PermissionsInput), password: Type.Optional(Password) },
  { title: 'UserChange', description: 'Either or both; a field left out stays as it is.' },
);

export const UsernameParams = Type.Object({ username: Type.String({ minLength: 1, maxLength: USERNAME.maxLength }) });
export const TokenIdParams = Type.Object({ token_id: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }) });

/** The prototypes (tanks) a device token is limited to; null: every one. */
const PrototypeIds = Type.Union(
  [Type.Array(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }), { minItems: 1, maxItems: 100, uniqueItems: true }), Type.Null()],
  {
    description:
      'The prototypes the token is limited to (each must exist): it is refused (403) for any prototype, sensor, actuator or ' +
      'measurement of another, and for what spans every prototype. Null or left out: every prototype.',
  },
);

export const NewDeviceToken = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: PRINTABLE, description: 'What the token is for, e.g. "pump controller".' }),
    days: Type.Integer({ minimum: 1, maximum: MAX_TOKEN_DAYS, description: `How long it is valid: 1 to ${MAX_TOKEN_DAYS} days.` }),
    prototype_ids: Type.Optional(PrototypeIds),
  },
  { title: 'NewDeviceToken' },
);

export const IssuedDeviceToken = Type.Object(
  {
    token_id: Type.Integer(),
    name: Type.String(),
    access_token: Type.String({ description: 'The bearer token: shown this once, never stored.' }),
    expires_at: Type.String({ format: 'date-time' }),
    prototype_ids: PrototypeIds,
  },
  { title: 'IssuedDeviceToken' },
);

export const DeviceTokenView = Type.Object(
  {
    token_id: Type.Integer(),
    name: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time' }),
    last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'To within a minute; null: never used.' }),
    prototype_ids: PrototypeIds,
  },
  { title: 'DeviceToken' },
);
