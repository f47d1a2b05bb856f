import { existsSync } from 'node:fs';
import { buildApp } from './app.js';
import { logAccessNotes } from './auth/startup-notes.js';
import { ConfigError, loadConfig, storeOptions } from './config.js';
import { openStore } from './store/index.js';

/** Starts the service: read the configuration, open the store, listen; drain and close on SIGTERM. */
async function main(): Promise<void> {
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
  app.log.info({ port, store: store.dialect.kind, auth: config.authMode }, 'sensorhub ready');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`sensorhub: configuration error: ${error.message}`);
  } else {
    console.error('sensorhub: failed to start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
