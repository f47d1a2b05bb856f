#!/usr/bin/env node
/**
 * The `sensorhub` command an installed package puts on the PATH: `sensorhub [COMMAND] [ARGS…]`,
 * `serve` when no command is given. Each command's module is imported only when it runs, so
 * `--help` and `users` never load the HTTP service, and a command is one line in COMMANDS:
 *
 *   backup: { summary: '…', main: async (argv) => (await import('./backup.js')).main(argv) },
 *
 * where the module exports `main(argv)` resolving to an exit code (undefined: keep running).
 */
import { readFileSync } from 'node:fs';

interface Command {
  /** One line for --help. */
  summary: string;
  main(argv: string[]): Promise<number | undefined>;
}

const COMMANDS: Record<string, Command> = {
  serve: {
    summary: 'runs the service (the default command)',
    main: async (argv) => {
      (await import('./small-board.js')).tuneForSmallBoard();
      return (await import('../server.js')).main(argv);
    },
  },
  users: {
    summary: 'adds, lists and removes users; prints device tokens (sensorhub users --help)',
    main: async (argv) => (await import('./users.js')).main(argv),
  },
  'copy-store': {
    summary: 'copies a whole store into another, e.g. SQLite into PostgreSQL (sensorhub copy-store --help)',
    main: async (argv) => (await import('./copy-store.js')).main(argv),
  },
  backup: {
    summary: 'writes a checked backup of the store now, while the service runs or not (sensorhub backup [FILE])',
    main: async (argv) => (await import('./backup.js')).main(argv),
  },
  restore: {
    summary: 'puts a backup in place of the stopped SQLite store, keeping the replaced one (sensorhub restore FILE)',
    main: async (argv) => (await import('./restore.js')).main(argv),
  },
  simulate: {
    summary: 'a virtual grow tank driving the service through its API (sensorhub simulate --help)',
    main: async (argv) => (await import('./simulate.js')).main(argv),
  },
};

const DEFAULT_COMMAND = 'serve';

function version(): string {
  // dist/cli/ and src/cli/ both sit two levels below the package's root.
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`);
  return `Usage: sensorhub [COMMAND] [ARGS…]

Commands:
${lines.join('\n')}

Options:
  --help, -h     this text; \`sensorhub COMMAND --help\` tells about one command
  --version, -v  the version of sensorhub

Every command reads its settings from the environment and from a .env file in the working
directory (the environment wins): DATABASE_URL (default sqlite:./data/sensorhub.db, relative to
the working directory), PORT, HOST, AUTH_MODE, TOKEN_SECRET, … (see .env.example in the package).`;
}

/** Runs one command line; resolves to an exit code, or undefined when the command keeps running. */
async function main(argv: string[]): Promise<number | undefined> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    console.log(help());
    return 0;
  }
  if (first === '--version' || first === '-v') {
    console.log(version());
    return 0;
  }
  const name = first === undefined || first.startsWith('-') ? DEFAULT_COMMAND : first;
  const args = name === first ? rest : argv;
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(`sensorhub: unknown command "${name}"; the commands: ${Object.keys(COMMANDS).join(', ')} (sensorhub --help)`);
    return 2;
  }
  return command.main(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (error: unknown) => {
    console.error('sensorhub:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
