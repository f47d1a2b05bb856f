/**
 * The package a Pi installs: `npm pack` in a copy of this checkout, installed globally into an
 * empty prefix as the README says (`npm install -g --allow-scripts=better-sqlite3 ./sensorhub-*.tgz`),
 * run from there with none of the checkout's development packages in reach: --version, --help,
 * users, and serve answering /healthz and the dashboard; and the systemd unit it ships.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedFiles, copyCheckout } from '../helpers/checkout.js';
import { run } from '../helpers/process.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

/** npm pack --json's account of the tarball. */
interface Packed {
  filename: string;
  unpackedSize: number;
  files: { path: string }[];
}

/**
 * better-sqlite3's install script (prebuild-install) fetches a prebuilt binary for this Node and
 * platform, as it does on a Pi from the project's releases; here from a local mirror holding the
 * one this checkout's node_modules built for the same version, so the install needs no network
 * and no compiler run. A request for any other version gets 404 and the script compiles instead.
 */
async function prebuiltMirror(folder: string): Promise<{ server: Server; url: string; requests: string[] }> {
  const module = join(ROOT, 'node_modules/better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(module, 'package.json'), 'utf8')) as { version: string };
  mkdirSync(join(folder, 'build/Release'), { recursive: true });
  copyFileSync(join(module, 'build/Release/better_sqlite3.node'), join(folder, 'build/Release/better_sqlite3.node'));
  const archive = join(folder, 'prebuilt.tar.gz');
  execFileSync('tar', ['-czf', archive, '-C', folder, 'build/Release/better_sqlite3.node']);
  const wanted = `/v${version}/better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url !== wanted) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(archive));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${address.port}`, requests };
}

/** Where prebuild-install keeps what it downloaded from a URL in the npm cache (its util.cachedPrebuild). */
function cachedPrebuildFiles(mirror: string, requests: string[]): string[] {
  const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  return requests.map((path) => {
    const url = mirror + path;
    const digest = createHash('sha512').update(url).digest('hex').slice(0, 6);
    return join(
      cache,
      '_prebuilds',
      `${digest}-${url
        .split('/')
        .pop()!
        .replace(/[^a-zA-Z0-9.]+/g, '-')}`,
    );
  });
}

describe('the package', { timeout: 120_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'sensorhub-package-'));
  const prefix = join(root, 'prefix');
  const bin = join(prefix, 'bin/sensorhub');
  const installed = join(prefix, 'lib/node_modules/sensorhub');
  const work = join(root, 'work');
  // What a Pi's shell has: node on the PATH, nothing of this checkout.
  const env = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: root };
  const sensorhub = (...args: string[]) => run(bin, args, { cwd: work, env, timeoutMs: 60_000 });
  let checkout: string;
  let packed: Packed;
  let mirror: Awaited<ReturnType<typeof prebuiltMirror>>;
  let install: Awaited<ReturnType<typeof run>>;

  beforeAll(async () => {
    checkout = copyCheckout(join(root, 'checkout'));
    const pack = await run('npm', ['pack', '--json', '--pack-destination', root], { cwd: checkout, timeoutMs: 240_000 });
    expect(pack.code, pack.stderr).toBe(0);
    [packed] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Packed[];

    mirror = await prebuiltMirror(join(root, 'prebuilt'));
    mkdirSync(prefix);
    mkdirSync(work);
    // Out of any project, from the cache where it can (the registry only for what it lacks).
    install = await run(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--prefer-offline',
        '--allow-scripts=better-sqlite3',
        '--no-audit',
        '--no-fund',
        join(root, packed.filename),
      ],
      { cwd: root, env: { npm_config_better_sqlite3_binary_host: mirror.url }, timeoutMs: 540_000 },
    );
    expect(install.code, install.stderr).toBe(0);
  }, 600_000);

  afterAll(async () => {
    mirror?.server.close();
    for (const file of cachedPrebuildFiles(mirror?.url ?? '', mirror?.requests ?? [])) rmSync(file, { force: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('holds the built service and dashboard, the unit and .env.example, and nothing of the sources or tests', () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', '.env.example', 'deploy/sensorhub.service']));
    expect(paths).toEqual(expect.arrayContaining(['dist/cli/sensorhub.js', 'dist/server.js', 'dist/web/index.html']));
    const extra = paths.filter(
      (path) =>
        !/^dist\/.+\.(js|html|css|svg|woff2?)$/.test(path) &&
        !['package.json', 'README.md', '.env.example', 'deploy/sensorhub.service'].includes(path) &&
        !/^LICENSE/.test(path),
    );
    expect(extra).toEqual([]);
    // A few hundred kilobytes compressed: an SD card and a slow link are no concern.
    expect(packed.unpackedSize).toBeLessThan(3_000_000);
  });

  it('is made without changing a file git tracks in the checkout', () => {
    expect(changedFiles(checkout)).toEqual([]);
  });

  it('installs with the prebuilt better-sqlite3 fetched by its install script, and no development package', () => {
    expect(mirror.requests.length).toBeGreaterThan(0);
    expect(existsSync(join(installed, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true);
    for (const dev of ['typescript', 'vite', 'tsx', 'vitest', 'preact'])
      expect(existsSync(join(installed, 'node_modules', dev)), dev).toBe(false);
  });

  it('--version prints the package version', async () => {
    const result = await sensorhub('--version');
    expect(result).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
  });

  it('--help lists the commands, one line each, and says where the settings come from', async () => {
    const result = await sensorhub('--help');
    expect(result.code).toBe(0);
    for (const command of ['serve', 'users', 'copy-store', 'backup', 'restore', 'simulate'])
      expect(result.stdout).toMatch(new RegExp(`^  ${command} +\\S.*$`, 'm'));
    expect(result.stdout).toContain('.env file in the working');
  });

  it('refuses an unknown command with exit code 2', async () => {
    const result = await sensorhub('frobnicate');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown command "frobnicate"');
  });

  it('serves the API and the dashboard with the store .env names, and manages its users', async () => {
    writeFileSync(join(work, '.env'), 'DATABASE_URL=sqlite:./store/sensorhub.db\nHOST=127.0.0.1\nPORT=0\n');
    const service = await spawnReady(bin, ['serve'], work, env);
    try {
      const health = await fetch(`http://127.0.0.1:${service.port}/healthz`);
      expect(health.status).toBe(200);
      const page = await fetch(`http://127.0.0.1:${service.port}/ui/`);
      expect(page.status).toBe(200);
      const html = await page.text();
      const script = /<script[^>]+src="(\/ui\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      expect((await fetch(`http://127.0.0.1:${service.port}${script}`)).status).toBe(200);
    } finally {
      service.child.kill('SIGTERM');
      await once(service.child, 'exit');
    }
    expect(existsSync(join(work, 'store/sensorhub.db'))).toBe(true);

    const added = await sensorhub('users', 'add', 'ana', '--password', 'long enough password');
    expect(added.code, added.stderr).toBe(0);
    expect((await sensorhub('users', 'list')).stdout).toMatch(/^ana\t/m);
  });
});

describe('the systemd unit', () => {
  const unit = join(ROOT, 'deploy/sensorhub.service');
  const verify = (file: string) => run('/usr/bin/systemd-analyze', ['verify', file], { env: { SYSTEMD_LOG_COLOR: '0' } });

  it('passes systemd-analyze verify without a warning', async () => {
    expect(await verify(unit)).toMatchObject({ code: 0, stderr: '' });
  });

  it('restarts on failure as its own user, with the system read-only but its data folder', () => {
    const lines = readFileSync(unit, 'utf8').split('\n');
    for (const line of [
      'Restart=on-failure',
      'User=sensorhub',
      'ProtectSystem=strict',
      'ReadWritePaths=/var/lib/sensorhub',
      'StateDirectory=sensorhub',
      'WorkingDirectory=/var/lib/sensorhub',
      'Environment=DATABASE_URL=sqlite:/var/lib/sensorhub/sensorhub.db',
      'EnvironmentFile=-/etc/sensorhub/env',
      'NoNewPrivileges=yes',
      'ExecStart=/usr/bin/env sensorhub serve',
    ])
      expect(lines).toContain(line);
  });

  it('fails verify when its command does not exist, so the check above means something', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sensorhub-unit-'));
    try {
      const copy = join(folder, 'sensorhub.service');
      writeFileSync(copy, readFileSync(unit, 'utf8').replace(/^ExecStart=.*$/m, `ExecStart=${folder}/missing/sensorhub serve`));
      const result = await verify(copy);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('is not executable');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/** Starts a command that logs `sensorhub ready` with its port (the service's JSON log line). */
async function spawnReady(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`exited with ${code} before it was ready:\n${output.join('\n')}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'sensorhub ready' && entry.port) resolve(entry.port);
      } catch {
        // not a log line
      }
    });
  });
  return { child, port };
}
