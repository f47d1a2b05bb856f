/**
 * Manages users and long-lived device tokens directly on the store (DATABASE_URL, or .env):
 * `npm run users -- <command>` (see users-command.ts).
 */
import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, storeOptions } from '../config.js';
import { openStore, type Store } from '../store/index.js';
import { usersCommand } from './users-command.js';

async function main(): Promise<number> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  let store: Store | undefined;
  try {
    const config = loadConfig();
    store = await openStore(config.databaseUrl, storeOptions(config));
    return await usersCommand(process.argv.slice(2), {
      store,
      tokenTtlMinutes: config.tokenTtlMinutes,
      tokenSecret: config.tokenSecret,
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    });
  } catch (error) {
    const prefix = error instanceof ConfigError ? 'configuration error: ' : '';
    console.error(`users: ${prefix}${(error as Error).message}`);
    return 1;
  } finally {
    await store?.close();
  }
}

main().then((code) => process.exit(code));
