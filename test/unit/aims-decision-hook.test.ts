import { describe, expect, it } from 'vitest';
import {
  aimedCondition,
  aimedInput,
  scheduleChangesAt,
  scheduledDecision,
  sequenceChangesAt,
  sequencedDecision,
  sequencePauseFromEnv,
  type ActuatorAim,
  type Decision,
  type DecisionInput,
} from '../../src/aims/decision-hook.js';
import { instantOf } from '../../src/aims/zone.js';

const NOW = instantOf(2026, 6, 1, 12, 0, 'UTC');
const aim = (a: Partial<ActuatorAim> = {}): ActuatorAim => ({
  setpoint: 6,
  band: 0.1,
  dose_mode: 'proportional',
  dose_fraction: 0.8,
  min_duration: 1,
  max_duration: null,
  initial_gain: 0.05,
  learned_gain: null,
  schedule: null,
  ...a,
});
const input = (i: Partial<DecisionInput> & { aim?: ActuatorAim; condition?: string; value?: number | null } = {}): DecisionInput => ({
  actuator: {
    enabled: true,
    activation_condition: i.condition ?? 'high',
    activation_period: 0,
    activation_duration: 30,
    aim: i.aim,
  },
  sensor: { newest: i.value === null ? null : { value: i.value ?? 7 } },
  pausedUntil: i.pausedUntil ?? null,
  now: NOW,
  zone: 'UTC',
  ...(i.sequence ? { sequence: i.sequence } : {}),
});
const ok: Decision = { activate: true, status: 'OK', reason: 'ok', duration: 5, period: 0, conditionMet: true };

describe('the condition with a set point', () => {
  const threshold = (v: number) => v > 6.5;
  it('without a set point the threshold rule decides', () => {
    expect(aimedCondition(input(), 6.6, threshold)).toBe(true);
    expect(aimedCondition(input({ aim: aim({ setpoint: null }) }), 6.2, threshold)).toBe(false);
  });
  it('with one, the band decides', () => {
    expect(aimedCondition(input({ aim: aim() }), 6.2, threshold)).toBe(true);
    expect(aimedCondition(input({ aim: aim() }), 6.1, threshold)).toBe(false);
  });
});

describe('the sized input', () => {
  it('unchanged without a set point', () => {
    const i = input();
    expect(aimedInput(i, true)).toEqual({ input: i, shown: null });
  });
  it('a fixed dose with a set point shows the aim and keeps activation_duration', () => {
    const r = aimedInput(input({ aim: aim({ dose_mode: 'fixed' }) }), true);
    expect(r.input.actuator.activation_duration).toBe(30);
    expect(r.shown).toEqual({ setpoint: 6, error: 1, gain: null });
  });
  it('a proportional dose is sized only while the condition holds', () => {
    expect(aimedInput(input({ aim: aim() }), true).input.actuator.activation_duration).toBe(16);
    expect(aimedInput(input({ aim: aim() }), false).input.actuator.activation_duration).toBe(30);
  });
  it('a learned gain wins; one of zero or less gives the smallest dose and is shown', () => {
    expect(aimedInput(input({ aim: aim({ learned_gain: 0.1 }) }), true).input.actuator.activation_duration).toBe(8);
    const dead = aimedInput(input({ aim: aim({ learned_gain: -0.01, min_duration: 2 }) }), true);
    expect(dead.input.actuator.activation_duration).toBe(2);
    expect(dead.shown?.gain).toBe(-0.01);
  });
  it('no reading: error null, nothing sized', () => {
    const r = aimedInput(input({ aim: aim(), value: null }), false);
    expect(r.shown).toEqual({ setpoint: 6, error: null, gain: 0.05 });
    expect(r.input.actuator.activation_duration).toBe(30);
  });
});

describe('timed outputs', () => {
  const light = (on: string, hours: number) => aim({ setpoint: null, dose_mode: 'fixed', schedule: { on, hours } });
  it('not a schedule: no answer', () => {
    expect(scheduledDecision(input())).toBeNull();
    expect(scheduleChangesAt(input())).toBeNull();
  });
  it('on with the rest of the window; off with 0', () => {
    const on = scheduledDecision(input({ condition: 'schedule', aim: light('11:00', 2) }));
    expect(on).toMatchObject({ activate: true, reason: 'ok', duration: 3600 });
    expect(scheduleChangesAt(input({ condition: 'schedule', aim: light('11:00', 2) }))).toBe(NOW + 3600_000);
    expect(scheduledDecision(input({ condition: 'schedule', aim: light('13:00', 2) }))).toMatchObject({ activate: false, duration: 0 });
  });
  it('disabled or paused: off; a pause ends by time', () => {
    const i = input({ condition: 'schedule', aim: light('11:00', 2) });
    i.actuator.enabled = false;
    expect(scheduledDecision(i)).toMatchObject({ activate: false, reason: 'disabled' });
    expect(scheduleChangesAt(i)).toBeNull();
    const paused = input({ condition: 'schedule', aim: light('11:00', 2), pausedUntil: NOW + 1000 });
    expect(scheduledDecision(paused)).toMatchObject({ activate: false, reason: 'paused' });
    expect(scheduleChangesAt(paused)).toBe(NOW + 1000);
  });
  it('a schedule condition without a schedule stays off', () => {
    expect(scheduledDecision(input({ condition: 'schedule' }))).toMatchObject({ activate: false });
  });
});

describe('sequenced', () => {
  const sequence = {
    self: { actuator_id: 2, dose_order: 2 },
    others: [
      { actuator_id: 1, dose_order: 1, wouldDose: false, busyUntil: null, lastDosedAt: NOW - 30_000, mixing: 10, changesAt: NOW + 5000 },
    ],
    pauseS: 60,
  };
  it('a decision that would dose waits, until the pause ends', () => {
    expect(sequencedDecision(ok, sequence, NOW)).toMatchObject({ activate: false, reason: 'sequenced', sequenceUntil: NOW + 30_000 });
    expect(sequenceChangesAt(input({ sequence }))).toBe(NOW + 5000);
  });
  it('one that would not dose, or no sequence, passes unchanged', () => {
    expect(sequencedDecision({ ...ok, activate: false }, sequence, NOW)).toEqual({ ...ok, activate: false });
    expect(sequencedDecision(ok, undefined, NOW)).toBe(ok);
    expect(sequenceChangesAt(input())).toBeNull();
  });
  it('SEQUENCE_PAUSE from the environment, 60 by default or when unreadable', () => {
    expect(sequencePauseFromEnv({})).toBe(60);
    expect(sequencePauseFromEnv({ SEQUENCE_PAUSE: '90' })).toBe(90);
    expect(sequencePauseFromEnv({ SEQUENCE_PAUSE: 'soon' })).toBe(60);
    expect(sequencePauseFromEnv({ SEQUENCE_PAUSE: '-1' })).toBe(60);
  });
});
