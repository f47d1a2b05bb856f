import { Type } from '@sinclair/typebox';

const oauthExtras = {
  grant_type: Type.Optional(Type.String({ description: 'Ignored (OAuth2 password flow: "password").' })),
  scope: Type.Optional(Type.String({ description: 'Ignored.' })),
  client_id: Type.Optional(Type.String({ description: 'Ignored.' })),
  client_secret: Type.Optional(Type.String({ description: 'Ignored.' })),
};

export const LoginForm = Type.Object(
  { username: Type.String({ minLength: 1 }), password: Type.String({ minLength: 1 }), ...oauthExtras },
  { title: 'Body_login_for_access_token_token_post', description: 'Form fields (urlencoded or multipart), or the same as JSON.' },
);

export const NewUserForm = Type.Object(
  { username: Type.String({ minLength: 1, maxLength: 64 }), password: Type.String({ minLength: 8 }), ...oauthExtras },
  { title: 'Body_create_user_access_token_users_new__post', description: 'Form fields (urlencoded or multipart), or the same as JSON.' },
);

export const Token = Type.Object(
  { access_token: Type.String(), token_type: Type.Literal('bearer') },
  { title: 'Token' },
);

export const TokenEcho = Type.Object({ token: Type.String() });
