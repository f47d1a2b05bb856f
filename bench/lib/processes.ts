import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { asDeployed } from './as-deployed.js';
import { stopOnExit } from './temporary.js';

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface Running {
  child: ChildProcess;
  url: string;
  /** Peak resident memory of the process so far, in MB (Linux VmHWM). */
  peakRssMb(): number;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

function running(child: ChildProcess, port: number): Running {
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    peakRssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb / 1024;
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  server.close();
  return port;
}

/**
 * The built service of `root` (this checkout by default) on a free port, run exactly as that
 * checkout's systemd unit and `npm start` run it (`sensorhub serve` with the unit's NODE_OPTIONS
 * and MALLOC_* settings); resolves once /healthz answers.
 * BENCH_SERVICE_NODE_ARGS adds options to its node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
export async function startService(env: Record<string, string>, root = ROOT): Promise<Running> {
  const port = await freePort();
  const deployed = asDeployed(root);
  const nodeArgs = [...deployed.nodeArgs, ...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const child = stopOnExit(
    spawn(process.execPath, [...nodeArgs, ...deployed.script], {
      cwd: root,
      env: { ...process.env, ...deployed.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
      stdio: ['ignore', 'inherit', 'inherit'],
    }),
  );
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the service exited with ${code} before it was ready`);
  });
  const ready = (async () => {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  await Promise.race([ready, exited]);
  return running(child, port);
}

/** The floor server (bench/floor.ts, or another floor script); it prints its port once it listens. */
export async function startFloor(script = 'bench/floor.ts', env: Record<string, string> = {}): Promise<Running> {
  const child = stopOnExit(
    spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the floor server exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  return running(child, port);
}

/**
 * The store floor (bench/store-floor.ts) on the SQLite file `file`: node:http and better-sqlite3
 * doing only the store work of a window read or the export.
 */
export const startStoreFloor = (file: string) => startFloor('bench/store-floor.ts', { STORE_FILE: file });
