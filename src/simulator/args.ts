/** The command line of `sensorhub simulate`, parsed (pure). */
import { DEFAULT_URL } from './live.js';
import { scenarioNamed, SCENARIOS } from './scenarios.js';
import { TANK_SENSORS, type DeviceIds } from './setup.js';

export interface SimulateArgs {
  help: boolean;
  scenario: string;
  prototypeId: number | undefined;
  url: string;
  token: string | undefined;
  speed: number;
  readingEverySeconds: number | undefined;
  pollEverySeconds: number | undefined;
  fast: boolean;
  scorecard: boolean;
  hours: number | undefined;
  seed: number | undefined;
  ids: Partial<DeviceIds>;
  benchmarksFile: string;
}

export class UsageError extends Error {}

export const USAGE = `usage: npm run simulate -- [options]

A virtual grow tank driving the service through its API: pH drifting up as plants feed, EC
falling, temperature on a day cycle, water slowly dropping, acid doses that act after mixing,
probe noise. It posts the readings and acts as the acid pump's controller.

  live (default)        against a running service in real time; Ctrl-C stops it
  --fast                the service in this process on a simulated clock: a day in seconds,
                        then the run's scorecard
  --scorecard           every scenario fast, the table printed and written to BENCHMARKS.md

options:
  --fault <name>        ${SCENARIOS.map((s) => s.name).join(', ')}
                        (--scenario is the same; restart needs --fast)
  --prototype <id>      the prototype to drive (live: 0, the one the dashboard opens)
  --ids ph=1,ec=2,…     use these sensors and acid_pump instead of finding or creating them
  --url <url>           the service (live; default ${DEFAULT_URL})
  --token <token>       a bearer token with permissions 1, 2 and 4 (AUTH_MODE=enforced):
                        post_measurements, read, modify; checked before anything changes
  --every <seconds>     seconds between readings (live 10, fast 60)
  --poll <seconds>      seconds between the controller's polls (live 5, fast 10)
  --speed <factor>      tank time runs this many times faster than real time (live; default 1)
  --hours <hours>       how long in tank time (fast 24; live: until stopped)
  --seed <n>            the probe noise's seed
  --benchmarks <file>   where --scorecard writes (default BENCHMARKS.md)
  --help`;

function positive(name: string, text: string | undefined): number {
  const value = Number(text);
  if (text === undefined || text.trim() === '' || !Number.isFinite(value) || value <= 0)
    throw new UsageError(`${name} needs a number > 0, got "${text ?? ''}"`);
  return value;
}

function integer(name: string, text: string | undefined): number {
  const value = Number(text);
  if (text === undefined || !/^\d+$/.test(text.trim()) || value > 2 ** 31 - 1)
    throw new UsageError(`${name} needs an integer ≥ 0, got "${text ?? ''}"`);
  return value;
}

function parseIds(text: string | undefined): Partial<DeviceIds> {
  const ids: Partial<DeviceIds> = {};
  const names = [...TANK_SENSORS, 'acid_pump'] as const;
  for (const part of (text ?? '').split(',').filter(Boolean)) {
    const [name, id] = part.split('=');
    if (!(names as readonly string[]).includes(name)) throw new UsageError(`--ids: unknown name "${name}" (one of ${names.join(', ')})`);
    ids[name as keyof DeviceIds] = integer(`--ids ${name}`, id);
  }
  if (Object.keys(ids).length === 0) throw new UsageError('--ids needs name=id pairs, e.g. ph=1,acid_pump=1');
  return ids;
}

export function parseArgs(argv: readonly string[]): SimulateArgs {
  const args: SimulateArgs = {
    help: false,
    scenario: 'healthy',
    prototypeId: undefined,
    url: DEFAULT_URL,
    token: undefined,
    speed: 1,
    readingEverySeconds: undefined,
    pollEverySeconds: undefined,
    fast: false,
    scorecard: false,
    hours: undefined,
    seed: undefined,
    ids: {},
    benchmarksFile: 'BENCHMARKS.md',
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] =
      argv[i].startsWith('--') && argv[i].includes('=')
        ? [argv[i].slice(0, argv[i].indexOf('=')), argv[i].slice(argv[i].indexOf('=') + 1)]
        : [argv[i], undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--help':
      case '-h':
        args.help = true;
        break;
      case '--fault':
      case '--scenario': {
        const name = value();
        if (!scenarioNamed(name))
          throw new UsageError(`unknown ${flag.slice(2)} "${name}" (one of ${SCENARIOS.map((s) => s.name).join(', ')})`);
        args.scenario = name;
        break;
      }
      case '--prototype':
        args.prototypeId = integer(flag, value());
        break;
      case '--url':
        args.url = value();
        if (!/^https?:\/\//.test(args.url)) throw new UsageError(`--url needs an http:// or https:// address, got "${args.url}"`);
        break;
      case '--token':
        args.token = value();
        break;
      case '--speed':
        args.speed = positive(flag, value());
        break;
      case '--every':
        args.readingEverySeconds = positive(flag, value());
        break;
      case '--poll':
        args.pollEverySeconds = positive(flag, value());
        break;
      case '--hours':
        args.hours = positive(flag, value());
        break;
      case '--seed':
        args.seed = integer(flag, value());
        break;
      case '--ids':
        args.ids = parseIds(value());
        break;
      case '--fast':
        args.fast = true;
        break;
      case '--scorecard':
        args.scorecard = true;
        break;
      case '--benchmarks':
        args.benchmarksFile = value();
        break;
      default:
        throw new UsageError(`unknown option "${argv[i]}"`);
    }
  }
  return args;
}
