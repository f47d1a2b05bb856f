/**
 * The users command line (`sensorhub users <command>`, `npm run users -- <command>`) on an open store: users and long-lived
 * device tokens, with no HTTP API needed.
 */
import { parseArgs } from 'node:util';
import { generatePassword, hashPassword } from '../auth/passwords.js';
import { NEW_USER_PERMISSIONS, parsePermissions, permissionNames } from '../auth/permissions.js';
import { SecretMismatch, tokenService, toolTokenSecret } from '../auth/tokens.js';
import { issueDeviceToken } from '../users/device-tokens.js';
import { MAX_TOKEN_DAYS, MIN_PASSWORD_LENGTH, USERNAME } from '../users/schemas.js';
import type { Store } from '../store/index.js';

const HELP = `Usage: sensorhub users <command> [options]   (in a checkout: npm run users -- <command> …)

Commands:
  add NAME [--permissions LIST] [--password PASSWORD]
      Creates a user. LIST is comma-separated: post_measurements, read, modify, admin, control
      (default: read,modify). Without --password one is generated and printed.
  token NAME [--days N] [--name TEXT]
      Prints a signed token for the user on stdout, valid N days (default 365, at most 3650):
      a device token, listed under TEXT (default "command line") by GET /users/NAME/tokens and
      revoked alone by DELETE /tokens/ID. It carries the user's permissions at that moment;
      remove, revoke and set-permissions still apply to it; a logout does not.
  list
      Lists the users and their permissions.
  revoke NAME
      Revokes every token issued to the user so far (as its logout does); new ones work.
  remove NAME
      Deletes the user; its tokens stop working.
  set-permissions NAME LIST
      Replaces the user's permissions. Tokens already issued keep at most what they had:
      taking a permission away applies to them at once, a new one needs a new token.

The store is the one DATABASE_URL names (default sqlite:./data/sensorhub.db), as for the server;
like the server it reads a .env file in the working directory. \`token\` signs with the server's
secret: TOKEN_SECRET as the server has it, or the one the server generated in the store; it
refuses when its TOKEN_SECRET differs from the one the server was started with.
Exit codes: 0 done, 1 refused (unknown user, taken name, bad permission, another secret), 2 wrong usage.`;

class UsageError extends Error {}
class Refused extends Error {}

function need(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}

function permissionsFrom(list: string): number {
  try {
    return parsePermissions(list);
  } catch (error) {
    throw new Refused((error as Error).message);
  }
}

/** The server's signing secret, or a refusal saying what to set. */
async function secretFor(store: Store, configured: string | undefined): Promise<Uint8Array> {
  try {
    return await toolTokenSecret(configured, store.settings);
  } catch (error) {
    if (error instanceof SecretMismatch) throw new Refused(error.message);
    throw error;
  }
}

/** What the commands work on, and where they write. */
export interface UsersContext {
  store: Store;
  tokenTtlMinutes: number;
  /** TOKEN_SECRET; unset: the one the store keeps. */
  tokenSecret: string | undefined;
  now?: () => number;
  /** A line for the user (stdout). */
  out(line: string): void;
  /** A line about the run (stderr). */
  err(line: string): void;
}

async function run(
  argv: string[],
  { store, tokenTtlMinutes, tokenSecret: configuredSecret, now = Date.now, out, err }: UsersContext,
): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      permissions: { type: 'string' },
      password: { type: 'string' },
      days: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, name, extra] = positionals;
  if (values.help || !command) {
    out(HELP);
    return;
  }

  switch (command) {
    case 'add': {
      const username = need(name, 'NAME');
      if (username.length > USERNAME.maxLength) throw new Refused(`a username has at most ${USERNAME.maxLength} characters`);
      if (!USERNAME.printable.test(username)) throw new Refused('a username has no control characters');
      const permissions = values.permissions === undefined ? NEW_USER_PERMISSIONS : permissionsFrom(values.permissions);
      if (values.password !== undefined && values.password.length < MIN_PASSWORD_LENGTH) {
        throw new Refused(`a password has at least ${MIN_PASSWORD_LENGTH} characters`);
      }
      const password = values.password ?? generatePassword();
      const user = await store.users.create({ username, password_hash: await hashPassword(password), permissions, created_at: now() });
      if (!user) throw new Refused(`user "${username}" already exists`);
      out(`added ${username} (${permissionNames(permissions).join(', ') || 'no permissions'})`);
      if (values.password === undefined) out(`password: ${password}`);
      return;
    }
    case 'token': {
      const username = need(name, 'NAME');
      const days = values.days === undefined ? 365 : Number(values.days);
      if (!Number.isFinite(days) || days <= 0 || days > MAX_TOKEN_DAYS) {
        throw new UsageError(`--days takes a number of days above 0, at most ${MAX_TOKEN_DAYS}`);
      }
      const user = await store.users.get(username);
      if (!user) throw new Refused(`no user "${username}"`);
      const label = values.name ?? 'command line';
      if (label.length === 0 || label.length > 100 || !USERNAME.printable.test(label)) {
        throw new Refused('a token name has 1 to 100 characters, no control characters');
      }
      const tokens = tokenService(await secretFor(store, configuredSecret), tokenTtlMinutes * 60_000);
      const { row, accessToken } = await issueDeviceToken(store, tokens, user, label, days, now());
      err(`token ${row.token_id} "${label}" for ${username} (${permissionNames(user.permissions).join(', ')}), valid ${days} days:`);
      out(accessToken);
      return;
    }
    case 'list': {
      const users = await store.users.list();
      if (users.length === 0) out('no users');
      for (const user of users) {
        out(`${user.username}\t${permissionNames(user.permissions).join(',') || '-'}\tcreated ${new Date(user.created_at).toISOString()}`);
      }
      return;
    }
    case 'revoke': {
      const username = need(name, 'NAME');
      const user = await store.users.get(username);
      if (!user || (await store.users.revokeTokens(user.user_id, now())) === undefined) throw new Refused(`no user "${username}"`);
      out(`revoked every token of ${username} issued so far`);
      return;
    }
    case 'remove': {
      const username = need(name, 'NAME');
      if (!(await store.users.remove(username))) throw new Refused(`no user "${username}"`);
      out(`removed ${username}`);
      return;
    }
    case 'set-permissions': {
      const username = need(name, 'NAME');
      const permissions = permissionsFrom(need(extra ?? values.permissions, 'LIST'));
      if (!(await store.users.setPermissions(username, permissions))) throw new Refused(`no user "${username}"`);
      out(`${username}: ${permissionNames(permissions).join(', ') || 'no permissions'}`);
      return;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** Runs one command line; resolves to its exit code: 0 done, 1 refused, 2 wrong usage. */
export async function usersCommand(argv: string[], context: UsersContext): Promise<number> {
  try {
    await run(argv, context);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      context.err(`users: ${(error as Error).message}\n\n${HELP}`);
      return 2;
    }
    context.err(`users: ${(error as Error).message}`);
    return 1;
  }
}
