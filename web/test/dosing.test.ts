import { describe, expect, it } from 'vitest';
import {
  conditionText,
  countdownText,
  decisionWords,
  doseSummary,
  doseTicks,
  durationText,
  effectiveDecision,
  nextDoseText,
  hasNeverRun,
  msUntilMayDose,
  pauseLeftMs,
  pollText,
  unansweredWarning,
  defaultCondition,
} from '../src/domain/dosing';
import { interlockRows, parseInterlocks } from '../src/domain/interlocks';
import { optionalText, parseOptionalNumbers } from '../src/domain/numbers';
import { CLAIM_REASONS, REASONS } from '../../src/safety/reasons.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;

describe('decisionWords', () => {
  it('says each reason code in words', () => {
    // Every code the service's decision can answer with that holds a pump back.
    const codes = [...REASONS.filter((reason) => reason !== 'ok'), ...CLAIM_REASONS];
    const texts = codes.map((reason) => decisionWords({ reason, status: 'x', activate: false }).text);
    expect(new Set(texts).size).toBe(codes.length);
    for (const text of texts) expect(text).not.toContain('x');
    expect(decisionWords({ reason: 'paused', status: 'Prototype paused until …', activate: false }).text).toBe(
      'Paused: dosing on this prototype is paused',
    );
  });

  it('keeps the service sentence where it names the specifics', () => {
    const interlock = decisionWords({ reason: 'interlock', status: 'Interlock: water level #4 below 10', activate: false });
    expect(interlock).toEqual({ text: 'Blocked by an interlock', detail: 'Interlock: water level #4 below 10', tone: 'blocked' });
    expect(decisionWords({ reason: 'limit', status: 'Dose limit: at most 6 doses per hour', activate: false }).detail).toBe(
      'Dose limit: at most 6 doses per hour',
    );
    expect(decisionWords({ reason: 'waiting', status: 'Waiting for activation period', activate: false }).detail).toBeUndefined();
  });

  it('reads "ok" as the condition met or not', () => {
    expect(decisionWords({ reason: 'ok', status: 'OK', activate: true })).toEqual({ text: 'Run now: condition met', tone: 'active' });
    expect(decisionWords({ reason: 'ok', status: 'OK', activate: false }).text).toBe('Wait: condition not met');
  });

  it('falls back to the status without a reason, or with one it does not know', () => {
    expect(decisionWords({ status: 'OK', activate: true }).text).toBe('Run now: condition met');
    expect(decisionWords({ status: 'Waiting for activation period', activate: false }).text).toBe('Wait: Waiting for activation period');
    expect(decisionWords({ reason: 'something_new', status: 'New rule', activate: false }).text).toBe('Wait: New rule');
  });
});

describe('hasNeverRun', () => {
  it('is true without a recorded dose, false with one', () => {
    expect(hasNeverRun(null)).toBe(true);
    expect(hasNeverRun(undefined)).toBe(true);
    expect(hasNeverRun({ activated_at: ago(MIN) })).toBe(false);
  });
});

describe('the countdown until a pump may dose', () => {
  const actuator = { last_activated: ago(30_000), activation_period: 300 };
  it('counts the period from the last run (or the creation) down to now', () => {
    expect(msUntilMayDose(actuator, NOW)).toBe(270_000);
    expect(msUntilMayDose(actuator, NOW + 270_000)).toBe(0);
    expect(msUntilMayDose(actuator, NOW + 400_000)).toBe(0);
    expect(countdownText(msUntilMayDose(actuator, NOW))).toBe('may dose in 4 min 30 s');
    expect(countdownText(0)).toBe('may dose now');
  });

  it('writes durations at a glance, rounding up so that 0 s means now', () => {
    expect(durationText(400)).toBe('1 s');
    expect(durationText(59_000)).toBe('59 s');
    expect(durationText(65_000)).toBe('1 min 05 s');
    expect(durationText(2 * 3_600_000 + 3 * MIN)).toBe('2 h 03 min');
  });
});

describe('conditionText', () => {
  it('puts the value against the threshold in words', () => {
    expect(conditionText('pH', 7.1, 'high', 6.5)).toEqual({ text: 'pH 7.1 is above 6.5', met: true });
    expect(conditionText('pH', 6.2, 'high', 6.5)).toEqual({ text: 'pH 6.2 is not above 6.5', met: false });
    expect(conditionText('EC', 0.8, 'low', 1.2).text).toBe('EC 0.8 is below 1.2');
    expect(conditionText('EC', 1.23456, 'low', 2).text).toBe('EC 1.235 is below 2');
  });

  it('says which side of the value "below or above" is on, as the rule reads it', () => {
    expect(conditionText('EC', 1.3, 'low_or_high', 1.2)).toEqual({ text: 'EC 1.3 is above 1.2', met: true });
    expect(conditionText('EC', 1.1, 'low_or_high', 1.2)).toEqual({ text: 'EC 1.1 is below 1.2', met: true });
    expect(conditionText('EC', 1.2, 'low_or_high', 1.2)).toEqual({ text: 'EC 1.2 is neither below nor above 1.2', met: false });
  });

  it('says when there is nothing to compare', () => {
    expect(conditionText('pH', null, 'high', 6.5)).toEqual({ text: 'pH has no reading yet', met: null });
    expect(conditionText('pH', 3, 'always', 0).text).toBe('runs whatever the value');
  });
});

describe('doseSummary', () => {
  const doses = [
    { activated_at: ago(5 * MIN), duration: 2 },
    { activated_at: ago(50 * MIN), duration: 2.5 },
    { activated_at: ago(3 * 60 * MIN), duration: 10 },
    { activated_at: ago(25 * 60 * MIN), duration: 99 },
  ];

  it('counts the last hour and the last 24 h against the limits', () => {
    const summary = doseSummary(doses, { max_doses_per_hour: 6, max_seconds_per_day: 120 }, NOW);
    expect(summary).toMatchObject({ hourDoses: 2, dayDoses: 3, daySeconds: 14.5, atLimit: false });
    expect(summary.hourText).toBe('2 of 6 doses in the last hour');
    expect(summary.dayText).toBe('3 doses, 14.5 of 120 s of run time in the last 24 h');
  });

  it('says "no limit" for a null limit', () => {
    const summary = doseSummary(doses, { max_doses_per_hour: null, max_seconds_per_day: null }, NOW);
    expect(summary.hourText).toBe('2 doses in the last hour (no limit)');
    expect(summary.dayText).toBe('3 doses, 14.5 s of run time in the last 24 h (no limit)');
    expect(doseSummary([], { max_doses_per_hour: 1, max_seconds_per_day: null }, NOW).hourText).toBe('0 of 1 dose in the last hour');
  });

  it('marks a limit reached', () => {
    expect(doseSummary(doses, { max_doses_per_hour: 2, max_seconds_per_day: null }, NOW).atLimit).toBe(true);
    expect(doseSummary(doses, { max_doses_per_hour: null, max_seconds_per_day: 14.5 }, NOW).atLimit).toBe(true);
  });
});

describe('pauseLeftMs', () => {
  it('is the time left, or null when not paused or past', () => {
    expect(pauseLeftMs(new Date(NOW + 15 * MIN).toISOString(), NOW)).toBe(15 * MIN);
    expect(pauseLeftMs(null, NOW)).toBeNull();
    expect(pauseLeftMs(ago(1000), NOW)).toBeNull();
  });
});

describe('pollText', () => {
  it('says when no controller polled, and offline past the timeout', () => {
    expect(pollText({ last_polled: null, controller_timeout: 60 }, NOW)).toEqual({ text: 'no controller has polled yet', offline: false });
    expect(pollText({ last_polled: ago(12_000), controller_timeout: 60 }, NOW)).toEqual({ text: 'last poll 12 s ago', offline: false });
    expect(pollText({ last_polled: ago(2 * MIN), controller_timeout: 60 }, NOW)).toEqual({
      text: 'last poll 2 min 00 s ago: controller offline',
      offline: true,
    });
    expect(pollText({ last_polled: ago(2 * MIN), controller_timeout: null }, NOW).offline).toBe(false);
  });
});

describe('doseTicks', () => {
  it('places the doses inside the range, ascending, in chart seconds', () => {
    const doses = [{ activated_at: ago(MIN) }, { activated_at: ago(3 * MIN) }, { activated_at: ago(90 * MIN) }];
    expect(doseTicks(doses, NOW - 60 * MIN, NOW)).toEqual([(NOW - 3 * MIN) / 1000, (NOW - MIN) / 1000]);
    expect(doseTicks(doses, NOW - 120 * MIN, NOW - 100 * MIN)).toEqual([]);
  });
});

describe('parseOptionalNumbers', () => {
  it('reads empty as null, numbers as themselves, and reports the rest', () => {
    const parsed = parseOptionalNumbers({ a: '', b: ' 2,5 ', c: 'x', d: '0' });
    expect(parsed.values).toEqual({ a: null, b: 2.5, d: 0 });
    expect(parsed.errors).toEqual({ c: 'Enter a number, or leave it empty' });
    expect(optionalText(null)).toBe('');
    expect(optionalText(0)).toBe('0');
  });
});

describe('interlock rows', () => {
  it('send empty bounds as null and report a bound that is no number', () => {
    const rows = interlockRows([{ sensor_id: 4, block_below: 10, block_above: null }]);
    expect(rows).toEqual([{ sensor_id: 4, block_below: '10', block_above: '' }]);
    expect(parseInterlocks(rows)).toEqual({ interlocks: [{ sensor_id: 4, block_below: 10, block_above: null }] });
    expect(parseInterlocks([...rows, { sensor_id: 5, block_below: 'low', block_above: '' }]).error).toBe(
      'Interlock 2: a bound is not a number',
    );
  });
});

describe('effectiveDecision', () => {
  const waiting = { status: 'Waiting for activation period', activate: false };
  const lockout = { since: ago(MIN), reason: '20 doses in a row did not move the reading' };
  it('says the pause and the lockout an older service does not weigh', () => {
    expect(effectiveDecision(waiting, { lockout: null, enabled: true, paused: true }).reason).toBe('paused');
    const locked = effectiveDecision({ status: 'OK', activate: true }, { lockout, enabled: true, paused: false });
    expect(locked).toMatchObject({ reason: 'locked_out', activate: false });
    expect(decisionWords(locked).text).toBe('Locked out: its doses did not move the reading');
    expect(effectiveDecision(waiting, { lockout: null, enabled: true, paused: false })).toBe(waiting);
  });

  it("keeps the service's reason, and a disabled actuator's status", () => {
    const decided = { ...waiting, reason: 'waiting' };
    expect(effectiveDecision(decided, { lockout, enabled: true, paused: true })).toBe(decided);
    expect(effectiveDecision(waiting, { lockout, enabled: false, paused: true })).toBe(waiting);
  });

  it('gives the next dose only when the period is what holds the pump', () => {
    expect(nextDoseText('paused', 5000)).toBe('not while dosing is paused');
    expect(nextDoseText('locked_out', 0)).toBe('not until unlocked');
    expect(nextDoseText('waiting', 5000)).toBe('may dose in 5 s');
    expect(nextDoseText(undefined, 0)).toBe('may dose now');
  });

  it('floors a time left on request', () => {
    expect(durationText(900_400, 'floor')).toBe('15 min 00 s');
    expect(durationText(900_400)).toBe('15 min 01 s');
  });
});

describe('the warning before the lockout', () => {
  const dose = (answered: boolean | null) => ({ answered });
  it('counts the newest unanswered doses in a row, leaving aside those not judged yet', () => {
    const doses = [dose(null), dose(false), dose(false), dose(null), dose(false), dose(true), dose(false)];
    expect(unansweredWarning(doses, 20, 'pH')).toEqual({ count: 3, text: '3 of 20 doses in a row did not move pH', near: false });
    expect(unansweredWarning(doses, 6, 'pH')?.near).toBe(true);
    expect(unansweredWarning(doses, 7, 'pH')?.near).toBe(false);
    expect(unansweredWarning(doses, null, 'EC')?.text).toBe('3 doses in a row did not move EC');
    expect(unansweredWarning([dose(false)], null, 'EC')?.text).toBe('1 dose in a row did not move EC');
  });

  it('says nothing when the newest judged dose moved the reading, or none was judged', () => {
    expect(unansweredWarning([dose(true), dose(false)], 20, 'pH')).toBeNull();
    expect(unansweredWarning([dose(null)], 20, 'pH')).toBeNull();
    expect(unansweredWarning([], 20, 'pH')).toBeNull();
  });
});

describe('the next-dose line while held', () => {
  it('promises no countdown while something other than the period holds the pump', () => {
    expect(nextDoseText('interlock', 120_000)).toBe('not while an interlock blocks it');
    expect(nextDoseText('stale', 0)).toBe('not until a fresh reading comes');
    expect(nextDoseText('limit', 60_000)).toBe('not until its limit frees');
    expect(nextDoseText('waiting', 65_000)).toBe(countdownText(65_000));
    expect(nextDoseText(undefined, 0)).toBe(countdownText(0));
  });
});

describe("a new pump's condition", () => {
  it('follows what it doses: acid above, base and nutrients below', () => {
    expect(defaultCondition('acid_pump')).toBe('high');
    expect(defaultCondition('base_pump')).toBe('low');
    expect(defaultCondition('nutrients_A_pump')).toBe('low');
    expect(defaultCondition('nutrients_B_pump')).toBe('low');
  });
});
