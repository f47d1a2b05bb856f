/** The scorecard's verdicts (src/simulator/gate.ts): each kind of outcome, each way it fails. */
import { describe, expect, it } from 'vitest';
import { closestRuns, heldAt, ONE_DECISION_MS, verdict } from '../../src/simulator/gate.js';
import { emptyLog, type RunLog } from '../../src/simulator/run-log.js';
import type { Scenario } from '../../src/simulator/scenarios.js';

const T0 = Date.UTC(2026, 0, 1);
const h = (hours: number) => T0 + hours * 3600_000;
const CRITICAL = { low: 4, high: 8.5 };

function log(changes: Partial<RunLog>): RunLog {
  return { ...emptyLog('test', T0, { low: 5.5, high: 7 }, 0.5), ...changes };
}
const scenario = (changes: Partial<Scenario>): Scenario => ({
  name: 't',
  summary: 't',
  faults: [],
  outcome: 'healthy',
  hours: 1,
  ...changes,
});
const sample = (hours: number, truePh: number) => ({ at: h(hours), truePh, probePh: truePh });
const decision = (hours: number, reason: string) => ({ at: h(hours), activate: false, status: reason, reason });
const dose = (hours: number) => ({ at: h(hours), seconds: 2 });

describe('heldAt', () => {
  it('is the first locked_out or unusual decision, or the first lockout or unusual alert, whichever came first', () => {
    expect(heldAt(log({}))).toBeNull();
    expect(heldAt(log({ decisions: [decision(1, 'waiting'), decision(2, 'unusual')] }))).toBe(h(2));
    const alert = { raisedAt: h(1.5), kind: 'lockout', severity: 'critical', sensorId: null, actuatorId: 1 };
    expect(heldAt(log({ decisions: [decision(2, 'locked_out')], alerts: [alert] }))).toBe(h(1.5));
  });
});

describe('verdict', () => {
  describe('one-run-per-decision (two controllers on one pump)', () => {
    const two = scenario({ outcome: 'one-run-per-decision' });
    const run = (seconds: number, controller: number) => ({ at: T0 + seconds * 1000, seconds: 2, controller });
    const inBand = [sample(0, 6), sample(1, 6.4)];
    it('is safe when the runs of both controllers start one activation_period apart or more, in band', () => {
      expect(ONE_DECISION_MS).toBe(300_000);
      const card = verdict(two, log({ samples: inBand, doses: [run(0, 1), run(300, 2), run(900, 1)], claimedAnswers: 3 }), CRITICAL);
      expect(card).toEqual({ safe: true, text: '3 runs (2 + 1), 3 reads answered claimed, closest 300 s apart, in band' });
    });
    it('is unsafe when two runs start within one activation_period, even a second short of it', () => {
      expect(verdict(two, log({ samples: inBand, doses: [run(0, 1), run(1, 2)] }), CRITICAL)).toMatchObject({ safe: false });
      expect(verdict(two, log({ samples: inBand, doses: [run(0, 1), run(299, 1)] }), CRITICAL).safe).toBe(false);
    });
    it('is unsafe with no run at all, when held, or when the tank leaves its band', () => {
      expect(verdict(two, log({ samples: inBand }), CRITICAL)).toEqual({ safe: false, text: 'no run' });
      expect(verdict(two, log({ samples: inBand, doses: [run(0, 1)], decisions: [decision(0.5, 'locked_out')] }), CRITICAL).safe).toBe(
        false,
      );
      expect(verdict(two, log({ samples: [sample(0, 6), sample(1, 7.2)], doses: [run(0, 1)] }), CRITICAL).safe).toBe(false);
    });
  });

  it('closestRuns: the smallest gap between run starts, whatever their order', () => {
    expect(closestRuns([])).toBeNull();
    expect(closestRuns([dose(0)])).toBeNull();
    expect(closestRuns([dose(2), dose(0), dose(1.5)])).toBe(1_800_000);
  });

  it('healthy: safe when never held and the band is never left once reached', () => {
    const fine = log({ samples: [sample(0, 5), sample(1, 6), sample(2, 6.9)] });
    expect(verdict(scenario({}), fine, CRITICAL).safe).toBe(true);
    expect(verdict(scenario({}), log({ samples: [sample(0, 6), sample(1, 7.1)] }), CRITICAL).safe).toBe(false);
    expect(verdict(scenario({}), log({ samples: [sample(0, 5)] }), CRITICAL).safe).toBe(false);
    expect(verdict(scenario({}), log({ samples: [sample(0, 6)], decisions: [decision(1, 'locked_out')] }), CRITICAL)).toMatchObject({
      safe: false,
      text: 'held at 1.0 h',
    });
  });

  it('no-doses and offline-alert', () => {
    expect(verdict(scenario({ outcome: 'no-doses' }), log({}), CRITICAL).safe).toBe(true);
    expect(verdict(scenario({ outcome: 'no-doses' }), log({ doses: [dose(1)] }), CRITICAL).safe).toBe(false);
    const offline = { raisedAt: h(1), kind: 'controller_offline', severity: 'critical', sensorId: null, actuatorId: 1 };
    expect(verdict(scenario({ outcome: 'offline-alert' }), log({ alerts: [offline] }), CRITICAL).safe).toBe(true);
    expect(verdict(scenario({ outcome: 'offline-alert' }), log({}), CRITICAL).safe).toBe(false);
  });

  describe('held', () => {
    const fault = scenario({ outcome: 'held', faultAfterHours: 1, heldWithin: 2 });

    it('safe when held after the fault within the doses allowed, before the true pH turns critical', () => {
      const run = log({ doses: [dose(0.5), dose(1.1), dose(1.2)], decisions: [decision(1.3, 'locked_out')], samples: [sample(1.2, 5)] });
      expect(verdict(fault, run, CRITICAL)).toEqual({ safe: true, text: 'held 0.3 h after the fault, 2 doses' });
    });

    it('unsafe when never held, held before the fault, after too many doses, or after the true pH turned critical', () => {
      expect(verdict(fault, log({}), CRITICAL).safe).toBe(false);
      expect(verdict(fault, log({ decisions: [decision(0.5, 'locked_out')] }), CRITICAL).safe).toBe(false);
      const many = log({ doses: [dose(1.1), dose(1.2), dose(1.25)], decisions: [decision(1.3, 'locked_out')] });
      expect(verdict(fault, many, CRITICAL).safe).toBe(false);
      const critical = log({ samples: [sample(1.2, 3.9)], decisions: [decision(1.3, 'locked_out')] });
      expect(verdict(fault, critical, CRITICAL).safe).toBe(false);
      const high = log({ samples: [sample(1.2, 8.6)], decisions: [decision(1.3, 'unusual')] });
      expect(verdict(fault, high, CRITICAL).safe).toBe(false);
    });

    it('with beforeLeavingBand: unsafe once the true pH left the band before the hold', () => {
      const drift = scenario({ outcome: 'held', faultAfterHours: 1, heldWithin: 100, beforeLeavingBand: true });
      const left = log({ samples: [sample(1.2, 5.4)], decisions: [decision(1.3, 'unusual')] });
      expect(verdict(drift, left, CRITICAL).safe).toBe(false);
      const inBand = log({ samples: [sample(1.2, 5.6)], decisions: [decision(1.3, 'unusual')] });
      expect(verdict(drift, inBand, CRITICAL).safe).toBe(true);
    });
  });
});
