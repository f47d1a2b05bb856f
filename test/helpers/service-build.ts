import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Vitest global setup: the tests that start the service as a process run the built service, as
 * `npm start` does, so it is built first (incrementally: seconds when little has changed). A
 * process that loads the sources through tsx spends about a second more CPU on each start.
 */
export default async function buildService(): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT });
}
