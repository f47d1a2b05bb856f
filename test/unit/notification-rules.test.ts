import { describe, expect, it } from 'vitest';
import { linkSigner } from '../../src/notifications/links.js';
import { alertMessage, checkOf, durationWords, safetyOf, subjectOf, whatOf } from '../../src/notifications/message.js';
import { outageNotice } from '../../src/notifications/outage.js';
import { channelWants, planAlert, type PlannedMessage } from '../../src/notifications/plan.js';
import { minutesOf, quietUntil, repeatWait, sendAt, timeOfDayMs } from '../../src/notifications/schedule.js';
import { sealer } from '../../src/notifications/seal.js';
import type { FollowedAlert, NotificationProgress } from '../../src/store/index.js';

const T = Date.UTC(2026, 10, 22, 12);
const MIN = 60_000;
const S = { repeatWaits: [5 * MIN, 15 * MIN, 60 * MIN], escalateAfterMs: 30 * MIN };
const alert = (over: Partial<FollowedAlert> = {}): FollowedAlert => ({
  alert_id: 7,
  sensor_id: 3,
  actuator_id: null,
  kind: 'high',
  severity: 'critical',
  state: 'active',
  raised_at: T,
  cleared_at: null,
  acknowledged_at: null,
  acknowledged_by: null,
  value: 45,
  last_value: 45,
  prototype_id: 1,
  prototype_name: 'Lettuce',
  sensor_name: 'Root zone',
  sensor_unit: 'Celsius',
  actuator_name: null,
  lockout_reason: null,
  ...over,
});

describe('repeat waits', () => {
  it('takes the n-th wait, the last repeating; none is an error', () => {
    expect(repeatWait(S.repeatWaits, 0)).toBe(5 * MIN);
    expect(repeatWait(S.repeatWaits, 1)).toBe(15 * MIN);
    expect(repeatWait(S.repeatWaits, 2)).toBe(60 * MIN);
    expect(repeatWait(S.repeatWaits, 9)).toBe(60 * MIN);
    expect(repeatWait(S.repeatWaits, -1)).toBe(5 * MIN);
    expect(() => repeatWait([], 0)).toThrow();
  });
});

describe('quiet hours', () => {
  const night = { from: '22:00', to: '07:00' };
  const at = (h: number, m = 0) => Date.UTC(2026, 10, 22, h, m);
  it('reads HH:MM only', () => {
    expect(minutesOf('00:00')).toBe(0);
    expect(minutesOf('23:59')).toBe(1439);
    for (const bad of ['24:00', '7:00', '12:60', '', '12:00:00']) expect(minutesOf(bad)).toBeUndefined();
  });
  it('wrapping midnight: before, at the start, inside before and after midnight, at the end', () => {
    expect(quietUntil(at(21, 59), night, 'UTC')).toBe(at(21, 59));
    expect(quietUntil(at(22), night, 'UTC')).toBe(at(7) + 24 * 60 * MIN);
    expect(quietUntil(at(23, 30), night, 'UTC')).toBe(at(7) + 24 * 60 * MIN);
    expect(quietUntil(at(3), night, 'UTC')).toBe(at(7));
    expect(quietUntil(at(6, 59), night, 'UTC')).toBe(at(7));
    expect(quietUntil(at(7), night, 'UTC')).toBe(at(7));
  });
  it('within one day, none, equal ends, and another time zone', () => {
    const day = { from: '13:00', to: '15:00' };
    expect(quietUntil(at(12, 59), day, 'UTC')).toBe(at(12, 59));
    expect(quietUntil(at(14), day, 'UTC')).toBe(at(15));
    expect(quietUntil(at(15), day, 'UTC')).toBe(at(15));
    expect(quietUntil(at(23), null, 'UTC')).toBe(at(23));
    expect(quietUntil(at(23), { from: '22:00', to: '22:00' }, 'UTC')).toBe(at(23));
    // 21:00 UTC is 22:00 in Berlin (winter): quiet there until 07:00 Berlin, 06:00 UTC.
    expect(quietUntil(at(21), night, 'Europe/Berlin')).toBe(at(6) + 24 * 60 * MIN);
    expect(timeOfDayMs(at(21, 30) + 1500, 'UTC')).toBe((21 * 60 + 30) * MIN + 1500);
  });
  it('critical messages never wait', () => {
    expect(sendAt(at(23), true, night, 'UTC')).toBe(at(23));
    expect(sendAt(at(23), false, night, 'UTC')).toBe(at(7) + 24 * 60 * MIN);
  });
});

describe('planAlert', () => {
  const progress = (over: Partial<NotificationProgress> = {}): NotificationProgress => ({
    alert_id: 7,
    severity: 'critical',
    critical_since: T,
    sends: 0,
    next_repeat_at: T + 5 * MIN,
    escalated: false,
    finished: false,
    ...over,
  });
  it('a new critical alert: raised, repeats from 5 min, escalation due at 30', () => {
    const plan = planAlert(alert(), undefined, T, S);
    expect(plan.messages).toEqual([{ kind: 'raised', escalated: false }]);
    expect(plan.progress).toEqual(progress());
    expect(plan.wakeAt).toBe(T + 5 * MIN);
  });
  it('a new warning: raised, no repeats, nothing to wake for', () => {
    const plan = planAlert(alert({ severity: 'warning' }), undefined, T, S);
    expect(plan.messages.map((m) => m.kind)).toEqual(['raised']);
    expect(plan.progress).toMatchObject({ critical_since: null, next_repeat_at: null });
    expect(plan.wakeAt).toBeUndefined();
  });
  it('a new alert already acknowledged is told once, without repeats', () => {
    const plan = planAlert(alert({ acknowledged_at: T }), undefined, T, S);
    expect(plan.messages.map((m) => m.kind)).toEqual(['raised']);
    expect(plan.progress?.next_repeat_at).toBeNull();
  });
  it('an alert raised and cleared before it was seen: one all-clear, finished', () => {
    const plan = planAlert(alert({ state: 'cleared', cleared_at: T }), undefined, T, S);
    expect(plan.messages).toEqual([{ kind: 'cleared', escalated: false }]);
    expect(plan.progress?.finished).toBe(true);
  });
  it('finished: nothing', () => {
    expect(planAlert(alert(), progress({ finished: true }), T, S)).toEqual({ messages: [], progress: undefined, wakeAt: undefined });
  });
  it('before a repeat is due: nothing changes; at it: a repeat and the next wait', () => {
    expect(planAlert(alert(), progress(), T + 4 * MIN, S)).toEqual({ messages: [], progress: undefined, wakeAt: T + 5 * MIN });
    const at5 = planAlert(alert(), progress(), T + 5 * MIN, S);
    expect(at5.messages).toEqual([{ kind: 'repeat', escalated: false, repeat: 0 }]);
    expect(at5.progress).toMatchObject({ sends: 1, next_repeat_at: T + 20 * MIN });
    const at20 = planAlert(alert(), at5.progress, T + 20 * MIN, S);
    expect(at20.progress).toMatchObject({ sends: 2, next_repeat_at: T + 80 * MIN });
    expect(at20.wakeAt).toBe(T + 30 * MIN);
    const at80 = planAlert(alert(), { ...at20.progress!, escalated: true }, T + 80 * MIN, S);
    expect(at80.messages).toEqual([{ kind: 'repeat', escalated: true, repeat: 2 }]);
    expect(at80.progress).toMatchObject({ sends: 3, next_repeat_at: T + 140 * MIN });
  });
  it('escalates once, at 30 minutes, not before', () => {
    expect(planAlert(alert(), progress({ next_repeat_at: T + 80 * MIN }), T + 30 * MIN - 1, S).messages).toEqual([]);
    const at30 = planAlert(alert(), progress({ next_repeat_at: T + 80 * MIN }), T + 30 * MIN, S);
    expect(at30.messages).toEqual([{ kind: 'escalation', escalated: true }]);
    expect(at30.progress?.escalated).toBe(true);
    expect(planAlert(alert(), at30.progress, T + 31 * MIN, S).messages).toEqual([]);
  });
  it('acknowledged: the repeats stop, no wake', () => {
    const plan = planAlert(alert({ acknowledged_at: T + MIN }), progress(), T + 10 * MIN, S);
    expect(plan.messages).toEqual([]);
    expect(plan.progress?.next_repeat_at).toBeNull();
    expect(plan.wakeAt).toBeUndefined();
  });
  it('warning to critical: a message and the repeats start; critical to warning: they stop', () => {
    const worse = planAlert(alert(), progress({ severity: 'warning', critical_since: null, next_repeat_at: null }), T + 10 * MIN, S);
    expect(worse.messages).toEqual([{ kind: 'critical', escalated: false }]);
    expect(worse.progress).toMatchObject({ severity: 'critical', critical_since: T + 10 * MIN, next_repeat_at: T + 15 * MIN, sends: 0 });
    const better = planAlert(alert({ severity: 'warning' }), progress(), T + 10 * MIN, S);
    expect(better.messages).toEqual([]);
    expect(better.progress).toMatchObject({ severity: 'warning', next_repeat_at: null });
  });
  it('cleared after being told: the all-clear, to the escalation channels too once escalated', () => {
    const plan = planAlert(alert({ state: 'cleared' }), progress({ escalated: true }), T + 40 * MIN, S);
    expect(plan.messages).toEqual([{ kind: 'cleared', escalated: true }]);
    expect(plan.progress).toMatchObject({ finished: true, next_repeat_at: null });
  });
});

describe('channelWants', () => {
  const m = (kind: PlannedMessage['kind'], escalated = false): PlannedMessage => ({ kind, escalated });
  const plain = { min_severity: 'warning', prototype_ids: null, escalation: false };
  it('escalation channels only once escalated; others never the escalation itself', () => {
    expect(channelWants({ ...plain, escalation: true }, alert(), m('raised'), true)).toBe(false);
    expect(channelWants({ ...plain, escalation: true }, alert(), m('escalation', true), true)).toBe(true);
    expect(channelWants({ ...plain, escalation: true }, alert(), m('repeat', true), true)).toBe(true);
    expect(channelWants(plain, alert(), m('escalation', true), true)).toBe(false);
    expect(channelWants(plain, alert(), m('repeat', true), true)).toBe(true);
  });
  it('critical-only channels: critical alerts, and the all-clear of one that was critical', () => {
    const loud = { ...plain, min_severity: 'critical' };
    expect(channelWants(loud, alert({ severity: 'warning' }), m('raised'), false)).toBe(false);
    expect(channelWants(loud, alert(), m('raised'), true)).toBe(true);
    expect(channelWants(loud, alert({ severity: 'warning' }), m('cleared'), true)).toBe(true);
    expect(channelWants(loud, alert({ severity: 'warning' }), m('cleared'), false)).toBe(false);
  });
  it('tanks: only the listed ones; the service’s own alerts everywhere', () => {
    expect(channelWants({ ...plain, prototype_ids: [2] }, alert(), m('raised'), true)).toBe(false);
    expect(channelWants({ ...plain, prototype_ids: [1, 2] }, alert(), m('raised'), true)).toBe(true);
    expect(channelWants({ ...plain, prototype_ids: [2] }, alert({ prototype_id: null }), m('raised'), true)).toBe(true);
  });
});

describe('messages', () => {
  it('names the tank and sensor, the value, what the safety rule did and what to check, with the link', () => {
    const msg = alertMessage(alert(), 'raised', 'https://hub/notifications/ack/x');
    expect(msg.title).toBe('CRITICAL: Tank "Lettuce", sensor "Root zone" critically high: 45 Celsius');
    expect(msg.text).toContain('interlock');
    expect(msg.text).toContain('hand meter');
    expect(msg.text).toContain('Acknowledge: https://hub/notifications/ack/x');
    expect(msg.priority).toBe('critical');
    expect(alertMessage(alert({ severity: 'warning', kind: 'low' }), 'repeat', null, 1).text).toContain('reminder 2');
    expect(alertMessage(alert(), 'escalation', null).text).toContain('Nobody answered');
    const cleared = alertMessage(alert({ state: 'cleared', cleared_at: T + MIN }), 'cleared', 'x');
    expect(cleared).toMatchObject({ priority: 'info', ack_url: null });
    expect(cleared.title).toContain('Resolved');
  });
  it('names things without names by kind and id; a pump by its name', () => {
    expect(subjectOf(alert({ prototype_name: null, sensor_name: null }))).toBe('Tank #1, sensor Celsius #3');
    expect(subjectOf(alert({ actuator_id: 4, actuator_name: 'pH down' }))).toBe('Tank "Lettuce", pump "pH down"');
    expect(subjectOf(alert({ actuator_id: 4 }))).toBe('Tank "Lettuce", pump #4');
    expect(subjectOf(alert({ sensor_id: null, prototype_id: null, prototype_name: null }))).toBe('sensorhub');
  });
  it('has words for every kind', () => {
    for (const kind of [
      'low',
      'high',
      'stale',
      'invalid',
      'stuck',
      'lockout',
      'limit',
      'controller_offline',
      'stock_low',
      'calibration_due',
      'backup',
      'other',
    ]) {
      const a = alert({ kind, lockout_reason: 'no response' });
      expect(whatOf(a).length).toBeGreaterThan(0);
      expect(safetyOf(a).length).toBeGreaterThan(0);
      expect(checkOf(a).length).toBeGreaterThan(0);
    }
    expect(safetyOf(alert({ kind: 'lockout', lockout_reason: 'no response' }))).toContain('(no response)');
    expect(whatOf(alert({ kind: 'low', severity: 'warning', last_value: 0.123456, sensor_unit: 'pH' }))).toBe('low: 0.123 pH');
    expect(whatOf(alert({ last_value: null, value: null }))).toBe('critically high: no value');
  });
  it('says how long in words', () => {
    expect(durationWords(45_000)).toBe('45 s');
    expect(durationWords(5 * MIN)).toBe('5 min');
    expect(durationWords(192 * MIN)).toBe('3 h 12 min');
    expect(durationWords(26 * 60 * MIN)).toBe('1 d 2 h');
    expect(durationWords(-5)).toBe('0 s');
  });
  it('a notice after an unclean stop only, with how long the service was down', () => {
    expect(outageNotice(undefined, T)).toBeUndefined();
    expect(outageNotice({ at: T - 60 * MIN, clean: true }, T)).toBeUndefined();
    const notice = outageNotice({ at: T - 192 * MIN, clean: false }, T);
    expect(notice?.title).toBe('sensorhub is back after being down about 3 h 12 min');
    expect(notice?.text).toContain('power cut or a crash');
  });
});

describe('secrets and links', () => {
  const secret = new TextEncoder().encode('x'.repeat(40));
  it('seals so that only the same secret opens, and tampering is caught', () => {
    const s = sealer(secret);
    const sealed = s.seal({ bot_token: '123:abc' });
    expect(sealed).not.toContain('123:abc');
    expect(s.open(sealed)).toEqual({ bot_token: '123:abc' });
    expect(sealer(new TextEncoder().encode('y'.repeat(40))).open(sealed)).toBeUndefined();
    expect(s.open(sealed.slice(0, -2) + (sealed.endsWith('AA') ? 'BB' : 'AA'))).toBeUndefined();
    expect(s.open('v2.abc')).toBeUndefined();
    expect(s.open('v1.abc')).toBeUndefined();
  });
  it('a link: valid until it expires; forged when changed or signed with another secret', () => {
    const links = linkSigner(secret);
    const token = links.sign({ alert_id: 7, channel_id: 2, expires: T + MIN });
    const check = links.check(token, T);
    expect(check).toMatchObject({ ok: true, claim: { alert_id: 7, channel_id: 2, expires: T + MIN } });
    expect(links.check(token, T + MIN)).toEqual({ ok: false, reason: 'expired' });
    expect(links.check(token.replace(/^7\./, '8.'), T)).toEqual({ ok: false, reason: 'forged' });
    expect(links.check('garbage', T)).toEqual({ ok: false, reason: 'forged' });
    expect(linkSigner(new TextEncoder().encode('y'.repeat(40))).check(token, T)).toEqual({ ok: false, reason: 'forged' });
    expect(links.sign({ alert_id: 7, channel_id: 2, expires: T })).not.toBe(links.sign({ alert_id: 7, channel_id: 2, expires: T }));
  });
});
