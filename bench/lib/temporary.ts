import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What a benchmark leaves behind if it is cut short (Ctrl-C, SIGTERM): its temporary folders
 * (stores of up to millions of rows) and the processes it started. Both are cleaned up on any
 * exit, `finally` blocks or not — a signal ends the process without running them.
 */
const folders = new Set<string>();
const children = new Set<ChildProcess>();
let installed = false;

function cleanUp(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders.clear();
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', cleanUp);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      console.error(`\n[bench] ${signal}: removing temporary folders and stopping the processes started`);
      cleanUp();
      process.exit(128 + constants.signals[signal]);
    });
  }
}

/** A fresh folder under the system's temporary directory, removed on exit however the run ends. */
export function temporaryFolder(prefix: string): { path: string; remove(): void } {
  install();
  const path = mkdtempSync(join(tmpdir(), prefix));
  folders.add(path);
  return {
    path,
    remove() {
      rmSync(path, { recursive: true, force: true });
      folders.delete(path);
    },
  };
}

/** A child process stopped on exit if it is still running then. */
export function stopOnExit(child: ChildProcess): ChildProcess {
  install();
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}
