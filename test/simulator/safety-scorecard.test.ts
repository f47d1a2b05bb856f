/** The scorecard's figures the dosing-safety rules promise (docs/api.md §14), each a simulated day on the real service. */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { runFast } from '../../src/simulator/fast.js';
import { DEAD_CONTROLLER_TIMEOUT, LIMIT_SECONDS_PER_DAY, scenarioNamed } from '../../src/simulator/scenarios.js';
import { scorecard } from '../../src/simulator/scorecard.js';

const day = (name: string) => runFast({ buildApp, scenario: scenarioNamed(name)!, hours: 24 });

describe('the safety scorecard', () => {
  it('stops a probe stuck at 8.0 with the defaults: at most 20 doses, then a lockout and one critical alert', async () => {
    const log = await day('stuck-ph');
    const card = scorecard(log);
    expect(card.doses).toBeLessThanOrEqual(20);
    expect(card.lockoutAt).not.toBeNull();
    expect(log.doses.every((dose) => (dose.at - log.startMs) / 1000 <= card.lockoutAt!)).toBe(true);
    expect(card.criticalAlerts).toBe(1);
    expect(log.alerts.filter((alert) => alert.severity === 'critical').map((alert) => alert.kind)).toEqual(['lockout']);
  });

  it('never pumps more than max_seconds_per_day in any 24 h', async () => {
    const card = scorecard(await day('with-limits'));
    expect(card.maxSecondsIn24h).toBeLessThanOrEqual(LIMIT_SECONDS_PER_DAY);
    expect(card.secondsPumped).toBeLessThanOrEqual(LIMIT_SECONDS_PER_DAY);
    expect(card.limitAt).not.toBeNull();
  });

  it('doses nothing into a tank low on water', async () => {
    const card = scorecard(await day('low-water'));
    expect(card.doses).toBe(0);
    expect(card.interlockAt).not.toBeNull();
  });

  it('raises controller_offline within controller_timeout + 1 s of the controller going silent', async () => {
    const log = await day('dead-controller');
    const card = scorecard(log);
    expect(card.doses).toBe(0);
    expect(card.offlineAlertAfter).not.toBeNull();
    // last_polled is kept to within 10 s, so the alert may come up to 10 s early, never late.
    expect(card.offlineAlertAfter!).toBeGreaterThanOrEqual(DEAD_CONTROLLER_TIMEOUT - 10);
    expect(card.offlineAlertAfter!).toBeLessThanOrEqual(DEAD_CONTROLLER_TIMEOUT + 1);
    expect(log.alerts.filter((alert) => alert.kind === 'controller_offline')).toHaveLength(1);
  });
});
