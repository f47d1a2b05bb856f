/**
 * The figures of a run, computed from its log alone (pure), and their markdown table. Times are
 * seconds from the start of the run; null where the thing never happened.
 */
import type { Verdict } from './gate.js';
import type { RunLog } from './run-log.js';

export interface Scorecard {
  scenario: string;
  hours: number;
  doses: number;
  secondsPumped: number;
  /** Millilitres pumped, when the pump's flow is known. */
  ml: number | null;
  /** Share (0..1) of the run the true pH spent inside the band. */
  timeInBand: number;
  truePhMin: number | null;
  truePhMax: number | null;
  /** Most run time in any rolling 24 h (s). */
  maxSecondsIn24h: number;
  /** When the decision first said so (the reasons of docs/api.md §14); `lockoutAt` also counts a hold on unusual consumption. */
  lockoutAt: number | null;
  interlockAt: number | null;
  limitAt: number | null;
  alerts: number;
  criticalAlerts: number;
  /** The first alert: when, and its kind and severity. */
  firstAlert: { at: number; kind: string; severity: string } | null;
  /** From the controller's last state read to the controller_offline alert (s). */
  offlineAlertAfter: number | null;
  /** Whether the outcome is safe for its scenario (gate.ts), when judged. */
  verdict?: Verdict;
}

const DAY_MS = 24 * 3600 * 1000;

export function scorecard(log: RunLog): Scorecard {
  const since = (at: number) => (at - log.startMs) / 1000;
  const firstReason = (reason: string) => {
    const decision = log.decisions.find((d) => d.reason === reason);
    return decision ? since(decision.at) : null;
  };
  const truePhs = log.samples.map((s) => s.truePh);
  const secondsPumped = log.doses.reduce((sum, dose) => sum + dose.seconds, 0);
  const first = log.alerts[0];
  const offline = log.alerts.find((alert) => alert.kind === 'controller_offline');
  // Held until unlocked: a lockout, or a hold on unusual consumption.
  const lockoutAlert = log.alerts.find((alert) => alert.kind === 'lockout' || alert.kind === 'unusual');
  const held = [firstReason('locked_out'), firstReason('unusual'), lockoutAlert ? since(lockoutAlert.raisedAt) : null].filter(
    (t): t is number => t !== null,
  );
  const lockoutAt = held.length ? Math.min(...held) : null;
  return {
    scenario: log.scenario,
    hours: (log.endMs - log.startMs) / 3600_000,
    doses: log.doses.length,
    secondsPumped,
    ml: log.flowMlPerSecond === null ? null : secondsPumped * log.flowMlPerSecond,
    timeInBand: timeInBand(log),
    truePhMin: truePhs.length ? Math.min(...truePhs) : null,
    truePhMax: truePhs.length ? Math.max(...truePhs) : null,
    maxSecondsIn24h: mostInWindow(log.doses, DAY_MS),
    lockoutAt,
    interlockAt: firstReason('interlock'),
    limitAt: firstReason('limit'),
    alerts: log.alerts.length,
    criticalAlerts: log.alerts.filter((alert) => alert.severity === 'critical').length,
    firstAlert: first ? { at: since(first.raisedAt), kind: first.kind, severity: first.severity } : null,
    offlineAlertAfter: offline && log.controllerLastSeenAt !== null ? (offline.raisedAt - log.controllerLastSeenAt) / 1000 : null,
  };
}

/**
 * The share of the run's time the true pH was in the band: each sample holds until the next
 * one, the last until the end of the run.
 */
export function timeInBand(log: Pick<RunLog, 'samples' | 'band' | 'endMs'>): number {
  const { samples, band } = log;
  if (samples.length === 0) return 0;
  const end = Math.max(log.endMs, samples.at(-1)!.at);
  const total = end - samples[0].at;
  if (total <= 0) return samples[0].truePh >= band.low && samples[0].truePh <= band.high ? 1 : 0;
  let inside = 0;
  samples.forEach((sample, i) => {
    const until = i + 1 < samples.length ? samples[i + 1].at : end;
    if (sample.truePh >= band.low && sample.truePh <= band.high) inside += until - sample.at;
  });
  return inside / total;
}

/** The most run time (s) of the doses inside any window of `windowMs` (a rolling limit's view). */
export function mostInWindow(doses: readonly { at: number; seconds: number }[], windowMs: number): number {
  const sorted = [...doses].sort((a, b) => a.at - b.at);
  let most = 0;
  let sum = 0;
  let start = 0;
  for (const dose of sorted) {
    sum += dose.seconds;
    while (sorted[start].at <= dose.at - windowMs) sum -= sorted[start++].seconds;
    most = Math.max(most, sum);
  }
  return most;
}

function when(seconds: number | null): string {
  if (seconds === null) return '—';
  const whole = Math.round(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(whole / 3600)}:${pad(Math.floor(whole / 60) % 60)}:${pad(whole % 60)}`;
}

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** One markdown table, a row per run. */
export function scorecardTable(cards: readonly Scorecard[]): string {
  const header =
    '| scenario | outcome | hours | doses | s pumped | ml | true pH in band | true pH min–max | held | interlock | limit | alerts (critical) | first alert | offline alert after |';
  const rule = `|${' --- |'.repeat(14)}`;
  const rows = cards.map((c) =>
    [
      c.scenario,
      c.verdict ? `${c.verdict.safe ? 'safe' : '**UNSAFE**'}: ${c.verdict.text}` : '—',
      number(c.hours, 1),
      number(c.doses),
      number(c.secondsPumped),
      c.ml === null ? '—' : number(c.ml),
      `${number(c.timeInBand * 100, 1)} %`,
      c.truePhMin === null ? '—' : `${c.truePhMin.toFixed(2)}–${c.truePhMax!.toFixed(2)}`,
      when(c.lockoutAt),
      when(c.interlockAt),
      when(c.limitAt),
      `${c.alerts} (${c.criticalAlerts})`,
      c.firstAlert ? `${c.firstAlert.kind} ${c.firstAlert.severity} at ${when(c.firstAlert.at)}` : '—',
      c.offlineAlertAfter === null ? '—' : `${number(c.offlineAlertAfter, 1)} s`,
    ].join(' | '),
  );
  return [header, rule, ...rows.map((row) => `| ${row} |`)].join('\n');
}
