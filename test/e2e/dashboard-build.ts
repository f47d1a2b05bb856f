import { existsSync } from 'node:fs';
import { build } from 'vite';
import { CHROMIUM } from './browser.js';

/**
 * Vitest global setup: the browser tests run against the real Vite build, the same files
 * `npm start` serves from dist/web. Built once per run, and only where the tests can run.
 */
export default async function buildDashboard(): Promise<void> {
  if (!existsSync(CHROMIUM)) return;
  await build({ configFile: new URL('../../web/vite.config.ts', import.meta.url).pathname, logLevel: 'warn' });
}
