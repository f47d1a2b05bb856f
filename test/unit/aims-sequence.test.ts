import { describe, expect, it } from 'vitest';
import { DEFAULT_SEQUENCE_PAUSE_S, sequenceStatus, sequenceWait, type SequenceMember } from '../../src/aims/sequence.js';

const NOW = 1_800_000_000_000;
const member = (actuator_id: number, dose_order: number, m: Partial<SequenceMember> = {}): SequenceMember => ({
  actuator_id,
  dose_order,
  wouldDose: false,
  busyUntil: null,
  lastDosedAt: null,
  mixing: 300,
  ...m,
});
const A = (m: Partial<SequenceMember> = {}) => member(1, 1, m);
const B = (m: Partial<SequenceMember> = {}) => member(2, 2, m);
const PH = (m: Partial<SequenceMember> = {}) => member(3, 3, m);

describe('sequencing', () => {
  it('an actuator without dose_order is not sequenced', () => {
    expect(sequenceWait({ actuator_id: 9, dose_order: null }, [A({ wouldDose: true, busyUntil: NOW + 1000 })], NOW)).toBeNull();
  });

  it('pH waits while part A or B would dose (nutrients first)', () => {
    expect(sequenceWait(PH(), [A({ wouldDose: true }), B()], NOW)).toEqual({ actuator_id: 1, why: 'doses_first', until: null });
    expect(sequenceWait(PH(), [A(), B({ wouldDose: true })], NOW)).toEqual({ actuator_id: 2, why: 'doses_first', until: null });
    expect(sequenceWait(B(), [A({ wouldDose: true }), PH()], NOW)?.actuator_id).toBe(1);
  });

  it('a part never waits for a later one that would dose', () => {
    expect(sequenceWait(A(), [B({ wouldDose: true }), PH({ wouldDose: true })], NOW)).toBeNull();
  });

  it('no two doses together: any member holding a claim or running holds the others, whatever the order', () => {
    expect(sequenceWait(A(), [PH({ busyUntil: NOW + 1 })], NOW)).toEqual({ actuator_id: 3, why: 'busy', until: NOW + 1 });
    expect(sequenceWait(A(), [PH({ busyUntil: NOW })], NOW)).toBeNull();
  });

  it('waits for the mixing time of an earlier part (boundary: exactly elapsed is free)', () => {
    const dosed = NOW - 299_999;
    expect(sequenceWait(B(), [A({ lastDosedAt: dosed })], NOW, 0)).toEqual({ actuator_id: 1, why: 'mixing', until: dosed + 300_000 });
    expect(sequenceWait(B(), [A({ lastDosedAt: NOW - 300_000 })], NOW, 0)).toBeNull();
  });

  it('pH is not dosed while the nutrients are still mixing', () => {
    expect(sequenceWait(PH(), [A(), B({ lastDosedAt: NOW - 10_000 })], NOW)?.why).toBe('mixing');
  });

  it('a later part dosed recently does not make an earlier one wait beyond the pause', () => {
    expect(sequenceWait(A(), [PH({ lastDosedAt: NOW - 61_000 })], NOW)).toBeNull();
  });

  it('two doses of different members are at least SEQUENCE_PAUSE apart (default 60 s)', () => {
    expect(DEFAULT_SEQUENCE_PAUSE_S).toBe(60);
    expect(sequenceWait(A(), [PH({ lastDosedAt: NOW - 59_999 })], NOW)).toEqual({
      actuator_id: 3,
      why: 'pause',
      until: NOW + 1,
    });
    expect(sequenceWait(A(), [PH({ lastDosedAt: NOW - 60_000 })], NOW)).toBeNull();
    expect(sequenceWait(B(), [A({ lastDosedAt: NOW - 100_000, mixing: 0 })], NOW, 120)?.why).toBe('pause');
  });

  it('the pause counts from the newest dose of any other member', () => {
    const wait = sequenceWait(B(), [A({ lastDosedAt: NOW - 200_000, mixing: 0 }), PH({ lastDosedAt: NOW - 30_000 })], NOW);
    expect(wait).toEqual({ actuator_id: 3, why: 'pause', until: NOW + 30_000 });
  });

  it('its own past doses do not hold it (its period does that)', () => {
    expect(sequenceWait(A(), [A({ lastDosedAt: NOW, busyUntil: NOW + 1000, wouldDose: true })], NOW)).toBeNull();
  });

  it('equal orders take turns by actuator_id and never wait for each other', () => {
    const one = member(1, 1, { wouldDose: true });
    const two = member(2, 1, { wouldDose: true });
    expect(sequenceWait(two, [one], NOW)?.actuator_id).toBe(1);
    expect(sequenceWait(one, [two], NOW)).toBeNull();
  });

  it('the status names the actuator waited for', () => {
    expect(sequenceStatus({ actuator_id: 1, why: 'doses_first', until: null }, 'part A')).toBe(
      'Sequenced: waiting for actuator 1 (part A), which doses first',
    );
    expect(sequenceStatus({ actuator_id: 1, why: 'busy', until: 1 })).toContain('actuator 1');
    expect(sequenceStatus({ actuator_id: 1, why: 'mixing', until: 1 })).toContain('mix');
    expect(sequenceStatus({ actuator_id: 1, why: 'pause', until: 1 })).toContain('pause');
  });
});
