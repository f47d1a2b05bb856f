import { doc } from '../http/route-doc.js';

const USERS_AND_PICTURE = 'Users, tokens and picture';
/** Said of every user-administration and device-token route. */
const ENFORCED_ONLY =
  ' In AUTH_MODE=open: 403 before the body is read, nothing written (an administrator, password or token made by ' +
  'anyone would outlive the switch to enforced); the users command-line tool makes them instead.';

export const userDocs = {
  login: (limits: { windowMs: number; perUsername: number; perAddress: number }) =>
    doc(
      USERS_AND_PICTURE,
      'Login For Access Token',
      'loginForAccessToken',
      'OAuth2 password flow: form fields `username` and `password` (urlencoded or multipart, or the same as JSON; ' +
        '`grant_type`, `scope`, `client_id`, `client_secret` are ignored). 401 for a wrong username or password, in the ' +
        `same time either way. After ${limits.perUsername} failed logins for one username, or ${limits.perAddress} from one address ` +
        `(IPv6: one /64), within ${limits.windowMs / 60_000} minutes, further attempts are refused with 429 and Retry-After ` +
        "until the oldest failure leaves the window; a successful login clears its username's failures.",
    ),
  create: doc(
    USERS_AND_PICTURE,
    'Create User Access Token',
    'createUserAccessToken',
    'Creates a user with the read and modify permissions (2|4) and returns a token for it. Same body forms as /token. ' +
      '409 when the username is taken. In AUTH_MODE=enforced it needs the admin permission once a user exists; while ' +
      'none exists it is open and the user it creates is an administrator with every permission (31); of several first ' +
      'users created at the same moment only one succeeds (the others get 401). In AUTH_MODE=open it never grants admin ' +
      '(anyone who reaches the port may call it): the first administrator is then made with the users command-line tool.',
  ),
  logout: doc(
    USERS_AND_PICTURE,
    'User Log Out',
    'userLogOut',
    'Ends every token the user obtained with a password (/token, /users/new/, /token/refresh) up to now, on every ' +
      'instance, with the event streams they opened; device tokens stay valid until revoked one by one or expired ' +
      '(device tokens made by the users command line before this version end too, as they did). Tokens issued ' +
      'afterwards work. Needs a valid bearer token in both access modes (any permission), 401 otherwise.',
  ),
  refresh: (sessionMaxDays: number) =>
    doc(
      USERS_AND_PICTURE,
      'Refresh Access Token',
      'refreshAccessToken',
      'For a valid token obtained with a password: a new one with a fresh lifetime (TOKEN_TTL_MINUTES) and the same ' +
        `permissions, so an open dashboard stays signed in — but never past SESSION_MAX_DAYS (${sessionMaxDays}) since the ` +
        'password was given: the last token ends then, and a refresh after that is 401 (log in again). The old token ' +
        'stays valid until it expires. A device token, an expired or revoked token, or none: 401. Both access modes.',
    ),
  list: doc(
    USERS_AND_PICTURE,
    'List Users',
    'listUsers',
    'Every user by username, with its permission bits (1 post_measurements, 2 read, 4 modify, 8 admin, 16 control) and ' +
      'creation time. Needs admin (8) in AUTH_MODE=enforced.' +
      ENFORCED_ONLY,
  ),
  add: doc(
    USERS_AND_PICTURE,
    'Add User',
    'addUser',
    'Creates a user with the permissions given, as bits (0..31) or a list of names (post_measurements, read, modify, ' +
      'admin, control). 409 when the username is taken; 422 for an unknown permission name, a password under 8 ' +
      'characters or a bad username (1 to 64 characters, no control characters); nothing is written then. Needs admin.' +
      ENFORCED_ONLY,
  ),
  change: doc(
    USERS_AND_PICTURE,
    'Change User',
    'changeUser',
    'Replaces the permissions and/or the password (fields left out stay). Tokens already issued keep at most what they ' +
      'had: a permission taken away applies to them at once, a new one needs a new token. A new password ends the ' +
      "user's tokens obtained with a password (device tokens stay). Taking admin from the last administrator: 409. " +
      '404 for an unknown user; 422 as for POST /users; nothing is written then. Needs admin.' +
      ENFORCED_ONLY,
  ),
  remove: doc(
    USERS_AND_PICTURE,
    'Remove User',
    'removeUser',
    'Removes the user; all its tokens stop working and its event streams end. 204; 404 for an unknown user; 409 for ' +
      'the last administrator. Needs admin.' +
      ENFORCED_ONLY,
  ),
  issueToken: doc(
    USERS_AND_PICTURE,
    'Create Device Token',
    'createDeviceToken',
    'A long-lived token for a device of the user (a pump controller, a sensor script), valid `days` (1 to 3650). It ' +
      "carries the user's permissions at this moment (taking one away from the user applies to it at once). The " +
      '`access_token` is shown in this answer only: the service never stores it. A logout does not end it; ' +
      'DELETE /tokens/{token_id} does. 404 for an unknown user; 422 for a bad name or days. Needs admin.' +
      ENFORCED_ONLY,
  ),
  listTokens: doc(
    USERS_AND_PICTURE,
    'List Device Tokens',
    'listDeviceTokens',
    "The user's device tokens without their secret, by token_id, expired ones included, with `last_used_at` to " +
      "within a minute (null: never used). A user may list its own (read), an administrator (admin, with or without read) anyone's; another " +
      "user's: 403. 404 for an unknown user (to an administrator)." +
      ENFORCED_ONLY,
  ),
  revokeToken: doc(
    USERS_AND_PICTURE,
    'Revoke Device Token',
    'revokeDeviceToken',
    'Revokes that one device token: it stops working at once and the event streams it opened end (on every instance). ' +
      "204; 404 for an unknown token. A user may revoke its own (read), an administrator (admin, with or without read) anyone's; another user's: 403." +
      ENFORCED_ONLY,
  ),
  items: doc(USERS_AND_PICTURE, 'Read Items', 'readItems', 'Echoes a valid bearer token (in both access modes); 401 otherwise.'),
};
