/**
 * When time alone can next change an actuator's decision (activation.ts): the moment its
 * sensor's newest measurement turns stale, or the moment its activation period elapses. Nothing
 * else in the decision depends on the clock, so between such instants it can change only through
 * a write (a measurement, a settings update, a reported activation).
 */
import type { ActuatorSettings, LatestReading } from './activation.js';

/**
 * The first whole millisecond after `from` at which `holds` becomes true, given an estimate of it.
 * The decision compares in floating point, so the estimate is moved until it agrees exactly.
 */
function firstMillisecond(estimate: number, from: number, holds: (t: number) => boolean): number | undefined {
  if (!Number.isFinite(estimate)) return undefined;
  let t = Math.max(Math.ceil(estimate), Math.floor(from) + 1);
  // A few steps at most: the estimate is off by rounding only.
  for (let step = 0; step < 4 && !holds(t); step++) t++;
  if (!holds(t)) return undefined;
  while (t - 1 > from && holds(t - 1)) t--;
  return t;
}

/**
 * The next instant (epoch ms, after `now`) at which the decision can change with no write, or
 * undefined when only a write can change it (disabled, no measurement, already stale). The
 * comparisons are those of `activationFor`, so the instant is exact to the millisecond.
 */
export function nextDecisionChange(
  actuator: ActuatorSettings,
  latest: LatestReading | undefined,
  now: number,
  staleAfterMs: number,
): number | undefined {
  if (actuator.enabled !== true || !latest) return undefined;
  const isStale = (t: number) => !(t - latest.timestamp <= staleAfterMs);
  if (isStale(now)) return undefined;
  const instants: number[] = [];
  const staleAt = firstMillisecond(latest.timestamp + staleAfterMs, now, isStale);
  if (staleAt !== undefined) instants.push(staleAt);
  const elapsed = (t: number) => (t - actuator.last_activated) / 1000 >= actuator.activation_period;
  if (!elapsed(now)) {
    const elapsesAt = firstMillisecond(actuator.last_activated + actuator.activation_period * 1000, now, elapsed);
    if (elapsesAt !== undefined) instants.push(elapsesAt);
  }
  return instants.length > 0 ? Math.min(...instants) : undefined;
}
