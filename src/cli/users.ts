/**
 * Manages users and long-lived device tokens directly on the store (DATABASE_URL, or .env), with
 * no HTTP API needed: `npm run users -- <command>`.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generatePassword, hashPassword } from '../auth/passwords.js';
import { NEW_USER_PERMISSIONS, parsePermissions, permissionNames } from '../auth/permissions.js';
import { SecretMismatch, tokenService, toolTokenSecret } from '../auth/tokens.js';
import { ConfigError, loadConfig } from '../config.js';
import { openStore, type Store, storeOptions } from '../store/index.js';

const HELP = `Usage: npm run users -- <command> [options]

Commands:
  add NAME [--permissions LIST] [--password PASSWORD]
      Creates a user. LIST is comma-separated: post_measurements, read, modify, admin
      (default: read,modify). Without --password one is generated and printed.
  token NAME [--days N]
      Prints a signed token for the user on stdout, valid N days (default 365, at most 3650):
      a device token. It carries the user's permissions at that moment; logout, remove and
      set-permissions still apply to it.
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

/** Ten years, longer than a device lives: the bound keeps a typo from minting a token that never ends. */
const MAX_TOKEN_DAYS = 3650;

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

async function run(store: Store, argv: string[], tokenTtlMinutes: number, configuredSecret: string | undefined): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      permissions: { type: 'string' },
      password: { type: 'string' },
      days: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, name, extra] = positionals;
  if (values.help || !command) {
    console.log(HELP);
    return;
  }

  switch (command) {
    case 'add': {
      const username = need(name, 'NAME');
      if (username.length > 64) throw new Refused('a username has at most 64 characters');
      if (/[\u0000-\u001f\u007f]/.test(username)) throw new Refused('a username has no control characters');
      const permissions = values.permissions === undefined ? NEW_USER_PERMISSIONS : permissionsFrom(values.permissions);
      if (values.password !== undefined && values.password.length < 8) throw new Refused('a password has at least 8 characters');
      const password = values.password ?? generatePassword();
      const user = await store.users.create({ username, password_hash: await hashPassword(password), permissions, created_at: Date.now() });
      if (!user) throw new Refused(`user "${username}" already exists`);
      console.log(`added ${username} (${permissionNames(permissions).join(', ') || 'no permissions'})`);
      if (values.password === undefined) console.log(`password: ${password}`);
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
      const tokens = tokenService(await secretFor(store, configuredSecret), tokenTtlMinutes * 60_000);
      console.error(`token for ${username} (${permissionNames(user.permissions).join(', ')}), valid ${days} days:`);
      console.log(await tokens.issue(user, Date.now(), days * 24 * 3600_000));
      return;
    }
    case 'list': {
      const users = await store.users.list();
      if (users.length === 0) console.log('no users');
      for (const user of users) {
        console.log(`${user.username}\t${permissionNames(user.permissions).join(',') || '-'}\tcreated ${new Date(user.created_at).toISOString()}`);
      }
      return;
    }
    case 'revoke': {
      const username = need(name, 'NAME');
      const user = await store.users.get(username);
      if (!user || !(await store.users.revokeTokens(user.user_id, Date.now()))) throw new Refused(`no user "${username}"`);
      console.log(`revoked every token of ${username} issued so far`);
      return;
    }
    case 'remove': {
      const username = need(name, 'NAME');
      if (!(await store.users.remove(username))) throw new Refused(`no user "${username}"`);
      console.log(`removed ${username}`);
      return;
    }
    case 'set-permissions': {
      const username = need(name, 'NAME');
      const permissions = permissionsFrom(need(extra ?? values.permissions, 'LIST'));
      if (!(await store.users.setPermissions(username, permissions))) throw new Refused(`no user "${username}"`);
      console.log(`${username}: ${permissionNames(permissions).join(', ') || 'no permissions'}`);
      return;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

async function main(): Promise<number> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  let store: Store | undefined;
  try {
    const config = loadConfig();
    store = await openStore(config.databaseUrl, storeOptions(config));
    await run(store, process.argv.slice(2), config.tokenTtlMinutes, config.tokenSecret);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`users: ${(error as Error).message}\n\n${HELP}`);
      return 2;
    }
    const prefix = error instanceof ConfigError ? 'configuration error: ' : '';
    console.error(`users: ${prefix}${(error as Error).message}`);
    return 1;
  } finally {
    await store?.close();
  }
}

main().then((code) => process.exit(code));
