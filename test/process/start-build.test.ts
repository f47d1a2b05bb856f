/**
 * `npm start` in a checkout builds first only when a source or build setting is newer than dist/:
 * its prestart script, run for real in a copy of the checkout (this checkout's dist/ is left to
 * the other tests), says when it builds.
 */
import { existsSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedFiles, copyCheckout } from '../helpers/checkout.js';
import { run } from '../helpers/process.js';

const BUILDING = 'sensorhub: building dist/';

describe('npm start in a checkout', { timeout: 300_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'sensorhub-start-build-'));
  let checkout: string;
  beforeAll(() => {
    checkout = copyCheckout(join(root, 'checkout'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const prestart = async () => {
    const result = await run('npm', ['run', 'prestart', '--silent'], { cwd: checkout, timeoutMs: 240_000 });
    expect(result.code, result.stderr).toBe(0);
    return result.stdout + result.stderr;
  };
  const stamp = () => join(checkout, 'dist/.build-stamp');
  /** Saves a file again: its time one second past the last build's stamp, as an editor would leave it. */
  const touchAfterBuild = (file: string) => {
    const after = new Date(statSync(stamp()).mtimeMs + 1000);
    utimesSync(join(checkout, file), after, after);
  };

  it('builds the service and the dashboard when there is no build yet', async () => {
    const output = await prestart();
    expect(output).toContain(`${BUILDING} (no build yet)`);
    expect(existsSync(join(checkout, 'dist/server.js'))).toBe(true);
    expect(existsSync(join(checkout, 'dist/web/index.html'))).toBe(true);
    expect(existsSync(stamp())).toBe(true);
  });

  it('does not build again when nothing changed', async () => {
    const before = statSync(stamp()).mtimeMs;
    expect(await prestart()).not.toContain(BUILDING);
    expect(statSync(stamp()).mtimeMs).toBe(before);
  });

  it('builds again when a service source, a dashboard source or a build setting changed', async () => {
    for (const file of ['src/server.ts', 'web/src/main.tsx', 'tsconfig.build.json']) {
      touchAfterBuild(file);
      expect(await prestart(), file).toContain(`${BUILDING} (sources changed since the last build)`);
      expect(await prestart(), file).not.toContain(BUILDING);
    }
  });

  it('writes nothing git tracks', () => {
    expect(changedFiles(checkout)).toEqual([]);
  });
});
