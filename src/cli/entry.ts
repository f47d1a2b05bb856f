import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Whether the module at `moduleUrl` is the one node was started with (`node dist/cli/users.js`)
 * rather than one imported by another (the `sensorhub` command): only then does it run itself
 * and exit. Node 20 has no `import.meta.main`.
 */
export function isEntry(moduleUrl: string): boolean {
  const started = process.argv[1];
  if (!started) return false;
  try {
    return realpathSync(started) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/** Runs a command's main with the process's arguments and exits with its code. */
export function runAsEntry(main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
