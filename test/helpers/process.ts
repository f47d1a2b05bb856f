import { listenEnv } from './stores.js';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Every line the process wrote to stdout and stderr so far. */
  output: string[];
  /** Sends the signal and waits for the exit; resolves to the exit code (null when killed by the signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const ROOT = new URL('../../', import.meta.url).pathname;

/** The built entry points (`npm run build`; the tests' global setup builds them). */
export const BUILT = {
  server: `${ROOT}dist/server.js`,
  users: `${ROOT}dist/cli/users.js`,
  copyStore: `${ROOT}dist/cli/copy-store.js`,
  backup: `${ROOT}dist/cli/backup.js`,
  restore: `${ROOT}dist/cli/restore.js`,
};

/**
 * The service as a real operating-system process (`node dist/server.js`, as `npm start` runs it),
 * listening on a free port; resolves once it logs that it is ready (on a loaded machine that can
 * take a good part of a minute). `nodeArgs` go to node before the entry point.
 */
export async function spawnService(env: Record<string, string>, timeoutMs = 60_000, nodeArgs: string[] = []): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...nodeArgs, BUILT.server], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...listenEnv(env.DATABASE_URL), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const lines = createInterface({ input: child.stdout! });

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${output.join('\n')}`)), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before it was ready:\n${output.join('\n')}`));
    });
    lines.on('line', (line) => {
      output.push(line);
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'sensorhub ready' && entry.port) {
          clearTimeout(timer);
          resolve(entry.port);
        }
      } catch {
        // not a log line
      }
    });
  });

  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

/** Runs a command to its end and collects what it printed. */
export async function run(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number; cwd?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: options.timeoutMs ?? 60_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** A request to a service process, with a JSON body when one is given: its status and parsed JSON answer. */
export async function requestJson(url: string, method = 'GET', body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
