/**
 * Manages users and long-lived device tokens directly on the store (DATABASE_URL, or .env):
 * `sensorhub users <command>` or `npm run users -- <command>` (see users-command.ts).
 */
import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, storeOptions } from '../config/index.js';
import { openStore, type Store } from '../store/index.js';
import { isEntry, runAsEntry } from './entry.js';
import { usersCommand } from './users-command.js';

/** Runs one users command line on the configured store; resolves to its exit code. */
export async function main(argv: string[]): Promise<number> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  let store: Store | undefined;
  try {
    const config = loadConfig();
    store = await openStore(config.databaseUrl, storeOptions(config));
    return await usersCommand(argv, {
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

if (isEntry(import.meta.url)) runAsEntry(main);
