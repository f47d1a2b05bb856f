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
