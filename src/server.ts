import { existsSync } from 'node:fs';
import { buildApp } from './app.js';
import { logAccessNotes } from './auth/startup-notes.js';
import { isEntry } from './cli/entry.js';
import { ConfigError, loadConfig, storeOptions } from './config/index.js';
import { openStore } from './store/index.js';

const HELP = `Usage: sensorhub serve

Runs the service until SIGTERM or SIGINT, then finishes the requests in flight and stops.
The settings come from the environment and a .env file in the working directory (see .env.example):
DATABASE_URL (default sqlite:./data/sensorhub.db), PORT (8000), HOST (0.0.0.0), AUTH_MODE, …`;

/** Starts the service: read the configuration, open the store, listen; drain and close on SIGTERM. */
export async function serve(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  // Until the app's logger exists, long migrations report as JSON lines of the same shape.
  const log = (details: object, msg: string) => console.log(JSON.stringify({ level: 30, time: Date.now(), ...details, msg }));
  const store = await openStore(config.databaseUrl, { ...storeOptions(config), log });
  const app = await buildApp(config, store);
  for (const { path, mode } of store.exposedFiles()) {
    app.log.warn(
      { path, mode },
      'store file or folder is readable by other users; it holds password hashes and the token secret: chmod 0600 files, 0700 folder',
    );
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    try {
      // New requests get 503 while those in flight finish; only then does the port close.
      await app.drain();
      await app.close();
      await store.close();
      app.log.info('stopped');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  await logAccessNotes(app.log, config, store);
  app.log.info({ port, store: store.kind, auth: config.authMode }, 'sensorhub ready');
}

/**
 * `sensorhub serve` and `node dist/server.js`: resolves once the service listens (undefined: it
 * keeps running), or to an exit code when it cannot start (1) or the arguments are wrong (2).
 */
export async function main(argv: string[]): Promise<number | undefined> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(HELP);
    return 0;
  }
  if (argv.length > 0) {
    console.error(`sensorhub serve: takes no arguments (got ${argv.join(' ')}); settings come from the environment\n\n${HELP}`);
    return 2;
  }
  try {
    await serve();
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`sensorhub: configuration error: ${error.message}`);
    } else {
      console.error('sensorhub: failed to start:', error instanceof Error ? error.message : error);
    }
    return 1;
  }
}

if (isEntry(import.meta.url)) {
  void main(process.argv.slice(2)).then((code) => {
    if (code !== undefined) process.exit(code);
  });
}
