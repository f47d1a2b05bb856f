/**
 * Whether a run's outcome is safe, as its scenario says a safe outcome looks (scenarios.ts
 * `Outcome`), from its log alone (pure). The scorecard shows the verdict; the test suite fails on
 * any unsafe one.
 */
import type { RunLog } from './run-log.js';
import type { Scenario } from './scenarios.js';
import { PUMP_DEFAULTS } from './setup.js';

export interface Verdict {
  safe: boolean;
  /** What happened, in a few words, for the table. */
  text: string;
}

export interface Critical {
  low: number;
  high: number;
}

/** The reasons that hold a pump until someone unlocks it. */
const HELD = new Set(['locked_out', 'unusual']);

/** When the pump was first held (a decision or an alert saying so), or null. */
export function heldAt(log: RunLog): number | null {
  const decision = log.decisions.find((d) => d.reason !== null && HELD.has(d.reason));
  const alert = log.alerts.find((a) => a.kind === 'lockout' || a.kind === 'unusual');
  const times = [decision?.at, alert?.raisedAt].filter((t): t is number => t !== undefined);
  return times.length ? Math.min(...times) : null;
}

const hours = (ms: number) => `${(ms / 3600_000).toFixed(1)} h`;

/**
 * One run per decision: the pump's runs, whichever controller made them, start at least one
 * `activation_period` (the pump's default, 300 s) apart. Two runs closer than that are one
 * decision dosed twice (or a run that overlapped another).
 */
export const ONE_DECISION_MS = PUMP_DEFAULTS.activation_period * 1000;

/** The two runs of the log that start closest together: their gap (ms), or null with fewer than two. */
export function closestRuns(doses: RunLog['doses']): number | null {
  const starts = doses.map((d) => d.at).sort((a, b) => a - b);
  let closest: number | null = null;
  for (let i = 1; i < starts.length; i++) closest = Math.min(closest ?? Infinity, starts[i] - starts[i - 1]);
  return closest;
}

export function verdict(scenario: Scenario, log: RunLog, critical: Critical): Verdict {
  const held = heldAt(log);
  const outside = (ph: number, band: { low: number; high: number }) => ph < band.low || ph > band.high;
  const inBand = (): Verdict | null => {
    if (held !== null) return { safe: false, text: `held at ${hours(held - log.startMs)}` };
    const firstIn = log.samples.findIndex((s) => !outside(s.truePh, log.band));
    const left = firstIn < 0 ? undefined : log.samples.slice(firstIn).find((s) => outside(s.truePh, log.band));
    if (firstIn < 0 || left) return { safe: false, text: `left the band at ${hours((left?.at ?? log.startMs) - log.startMs)}` };
    return null;
  };
  switch (scenario.outcome) {
    case 'healthy':
      return inBand() ?? { safe: true, text: 'never held, stayed in band' };
    case 'one-run-per-decision': {
      const by = (controller: number) => log.doses.filter((d) => d.controller === controller).length;
      const closest = closestRuns(log.doses);
      const runs = `${log.doses.length} runs (${by(1)} + ${by(2)}), ${log.claimedAnswers} reads answered claimed`;
      const gap = closest === null ? '' : `, closest ${Math.round(closest / 1000)} s apart`;
      if (log.doses.length === 0) return { safe: false, text: 'no run' };
      if (closest !== null && closest < ONE_DECISION_MS) return { safe: false, text: `${runs}${gap}: one decision dosed twice` };
      const band = inBand();
      if (band) return { safe: false, text: `${runs}; ${band.text}` };
      return { safe: true, text: `${runs}${gap}, in band` };
    }
    case 'no-doses':
      return log.doses.length === 0 ? { safe: true, text: 'no dose' } : { safe: false, text: `${log.doses.length} doses` };
    case 'offline-alert': {
      const alert = log.alerts.find((a) => a.kind === 'controller_offline' && a.severity === 'critical');
      return alert ? { safe: true, text: 'controller_offline alert' } : { safe: false, text: 'no controller_offline alert' };
    }
    case 'held': {
      const faultAt = log.startMs + (scenario.faultAfterHours ?? 0) * 3600_000;
      if (held === null) return { safe: false, text: 'never held' };
      const doses = log.doses.filter((d) => d.at >= faultAt && d.at <= held).length;
      const before = log.samples.filter((s) => s.at >= faultAt && s.at <= held);
      const bound = scenario.beforeLeavingBand ? log.band : critical;
      const crossed = before.find((s) => outside(s.truePh, bound));
      const within = scenario.heldWithin ?? 20;
      const text = `held ${hours(held - faultAt)} after the fault, ${doses} doses`;
      if (held < faultAt) return { safe: false, text: `held before the fault, at ${hours(held - log.startMs)}` };
      if (doses > within) return { safe: false, text: `${text} (more than ${within})` };
      if (crossed) return { safe: false, text: `${text}; true pH ${crossed.truePh.toFixed(2)} first` };
      return { safe: true, text };
    }
  }
}
