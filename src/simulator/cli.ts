/**
 * `sensorhub simulate` (`npm run simulate -- …`): the tank live against a running service, one
 * scenario fast in-process, or every scenario's scorecard written into BENCHMARKS.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs, UsageError, USAGE, type SimulateArgs } from './args.js';
import { withScorecardSection, SCORECARD_HEADING } from './benchmarks.js';
import { type AppBuilder, type FastRunOptions, runFast } from './fast.js';
import { verdict } from './gate.js';
import { httpApi } from './api.js';
import { runLive } from './live.js';
import { accessProblem } from './preflight.js';
import { PH_BAND, PUMP_FLOW_ML_PER_SECOND, type Scenario, scenarioNamed, SCENARIOS } from './scenarios.js';
import { scorecard, scorecardTable, type Scorecard } from './scorecard.js';
import { PUMP_DEFAULTS, SENSOR_DEFAULTS } from './setup.js';

export interface CliDeps {
  /** The service's app builder, for the in-process runs (given by the entry point). */
  buildApp?: AppBuilder;
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** Stops a live run (Ctrl-C). */
  signal?: AbortSignal;
}

export const SCORECARD_COMMAND = 'npm run simulate -- --scorecard';

export async function main(argv: string[], deps: CliDeps = {}): Promise<number> {
  const out = deps.out ?? ((line: string) => console.log(line));
  const err = deps.err ?? ((line: string) => console.error(line));
  let args: SimulateArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`simulate: ${error.message}`);
    err('(npm run simulate -- --help for the options)');
    return 2;
  }
  if (args.help) {
    out(USAGE);
    return 0;
  }
  const scenario = scenarioNamed(args.scenario)!;
  try {
    if (args.scorecard || args.fast) {
      if (!deps.buildApp) throw new Error('the fast runs need the service built into this process');
      const fastOptions = {
        buildApp: deps.buildApp,
        seed: args.seed,
        readingEverySeconds: args.readingEverySeconds,
        pollEverySeconds: args.pollEverySeconds ?? (args.scorecard ? SCORECARD_POLL_SECONDS : undefined),
        prototypeId: args.prototypeId,
      };
      const scenarios = args.scorecard ? SCENARIOS : [scenario];
      const cards: Scorecard[] = [];
      for (const each of scenarios) {
        const started = performance.now();
        const card = await scoredRun(each, { ...fastOptions, hours: args.hours ?? (each.hours || 24) });
        cards.push(card);
        out(
          `${each.name}: ${card.doses} doses, ${card.secondsPumped} s pumped in ${card.hours} h (${((performance.now() - started) / 1000).toFixed(1)} s)`,
        );
      }
      out('');
      out(scorecardTable(cards));
      if (args.scorecard) {
        const file = args.benchmarksFile;
        writeFileSync(file, withScorecardSection(readFileSync(file, 'utf8'), scorecardSection(cards, fastOptions.pollEverySeconds ?? 10)));
        out(`\nwritten to ${file} (${SCORECARD_HEADING.replace(/^#+ /, '')})`);
      }
      return 0;
    }
    if (scenario.faults.includes('restart')) {
      err('simulate: the restart scenario restarts the service in this process: run it with --fast');
      return 2;
    }
    const problem = await accessProblem(httpApi(args.url, args.token), args.token);
    if (problem !== null) {
      err(`simulate: ${problem}`);
      return 1;
    }
    await runLive({
      url: args.url,
      token: args.token,
      prototypeId: args.prototypeId ?? 0,
      scenario,
      ids: args.ids,
      readingEverySeconds: args.readingEverySeconds ?? 10,
      pollEverySeconds: args.pollEverySeconds ?? 5,
      speed: args.speed,
      hours: args.hours,
      seed: args.seed,
      signal: deps.signal,
      out,
    });
    return 0;
  } catch (error) {
    // fetch says only "fetch failed" when nothing answers at the address.
    const unreachable = error instanceof TypeError && error.message === 'fetch failed';
    const hint = unreachable ? ` (is the service running at ${args.url}? npm start)` : '';
    err(`simulate: ${(error as Error).message}${hint}`);
    return 1;
  }
}

/** The controller polls every 30 s in the scorecard's runs: the pump's period is 300 s, and the runs take a third of the time. */
export const SCORECARD_POLL_SECONDS = 30;

/** One scenario's scorecard with its verdict. */
export async function scoredRun(scenario: Scenario, options: Omit<FastRunOptions, 'scenario'>): Promise<Scorecard> {
  const critical = { low: SENSOR_DEFAULTS.ph.threshold_critically_low, high: SENSOR_DEFAULTS.ph.threshold_critically_high };
  const log = await runFast({ ...options, scenario });
  return { ...scorecard(log), verdict: verdict(scenario, log, critical) };
}

function scorecardSection(cards: readonly Scorecard[], pollSeconds: number): string {
  const pump = PUMP_DEFAULTS;
  return [
    SCORECARD_HEADING,
    '',
    `\`${SCORECARD_COMMAND}\` runs each scenario for its simulated hours against the real service in`,
    'its own process (SQLite; its clock and alarms simulated, a few seconds a simulated day), with the',
    "service's default safety settings: a reading every 60 s, a",
    `controller poll every ${pollSeconds} s, an acid pump \`${pump.activation_condition}\` above ${pump.condition_value}, period ${pump.activation_period} s,`,
    `${pump.activation_duration} s a run, ${PUMP_FLOW_ML_PER_SECOND} ml/s. "In band": the time the tank's true pH spent within`,
    `${PH_BAND.low}–${PH_BAND.high}. Times are h:mm:ss from the start. The command replaces this section.`,
    '',
    scorecardTable(cards),
    '',
    ...SCENARIOS.map((s) => `- \`${s.name}\`: ${s.summary}.`),
  ].join('\n');
}
