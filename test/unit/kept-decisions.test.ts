import { describe, expect, it } from 'vitest';
import { keptDecisions } from '../../src/actuators/kept-decisions.js';
import type { InputsListener } from '../../src/actuators/decision-inputs.js';
import { activationJson } from '../../src/core/json-text.js';
import { decide, type DecisionInput } from '../../src/safety/index.js';
import type { MaybePromise } from '../../src/store/index.js';
import { CAUSES, inputWith, NOW } from '../helpers/safety-input.js';

/** The first instant the pump of CAUSES.waiting may run again: its period (300 s) after NOW - 1000. */
const PERIOD_ENDS = NOW - 1000 + 300_000;

/**
 * Inputs as decision-inputs.ts hands them out: built at the clock's instant from `current` (or
 * behind a promise when `fromStore`), with its listeners and epoch driven by the test.
 */
function fakeInputs(current: Map<number, DecisionInput>) {
  const clock = { now: NOW };
  const listeners = new Set<InputsListener>();
  const state = { epoch: 0, fromStore: false, built: 0 };
  const inputs = {
    input(actuatorId: number): MaybePromise<DecisionInput | undefined> {
      state.built++;
      const kept = current.get(actuatorId);
      const input = kept && { ...kept, now: clock.now };
      return state.fromStore ? Promise.resolve(input) : input;
    },
    epoch: () => state.epoch,
    onChange(listener: InputsListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const tell = (...ids: number[]) => {
    for (const listener of listeners) listener(ids, false);
  };
  return { inputs, clock, state, tell };
}

/** Actuator 1 waits for its period; actuator 2 runs. */
function setUp() {
  const current = new Map([
    [1, inputWith(CAUSES.waiting)],
    [2, inputWith()],
  ]);
  const fake = fakeInputs(current);
  const decisions = keptDecisions({ inputs: fake.inputs, now: () => fake.clock.now });
  const reasonOf = async (id: number) => (await decisions.of(id))?.decision.reason;
  return { current, ...fake, decisions, reasonOf };
}

describe('kept decisions: each actuator decided once per change of its inputs or of what time alone changes', () => {
  it('answers the decision and its JSON text, and keeps them between changes', () => {
    const { decisions, state } = setUp();
    const first = decisions.of(1);
    const decision = decide(inputWith(CAUSES.waiting));
    expect(first).toMatchObject({ decision, json: activationJson(decision) });
    expect(JSON.parse((first as { json: string }).json)).toEqual({
      activate: false,
      status: 'Activation period not elapsed',
      reason: 'waiting',
      duration: 5,
      period: 300,
    });
    expect(decisions.of(1)).toBe(first);
    expect(decisions.of(1)).toBe(first);
    expect(state.built).toBe(1);
  });

  it('decides again at the instant time alone changes the decision, and not a millisecond before', async () => {
    const { clock, reasonOf, state } = setUp();
    expect(await reasonOf(1)).toBe('waiting');
    clock.now = PERIOD_ENDS - 1;
    expect(await reasonOf(1)).toBe('waiting');
    expect(state.built).toBe(1);
    clock.now = PERIOD_ENDS;
    expect(await reasonOf(1)).toBe('ok');
    expect(state.built).toBe(2);
  });

  it('decides again when the clock is set back before the instant it decided at', async () => {
    const { clock, current, reasonOf, state } = setUp();
    clock.now = PERIOD_ENDS;
    current.set(1, inputWith(CAUSES.waiting));
    expect(await reasonOf(1)).toBe('ok');
    clock.now = PERIOD_ENDS - 1;
    expect(await reasonOf(1)).toBe('waiting');
    expect(state.built).toBe(2);
  });

  it("decides again when the actuator's inputs are told to have changed; another's change leaves it kept", async () => {
    const { current, reasonOf, state, tell } = setUp();
    expect(await reasonOf(1)).toBe('waiting');
    expect(await reasonOf(2)).toBe('ok');
    current.set(1, inputWith(CAUSES.disabled));
    current.set(2, inputWith(CAUSES.paused));
    tell(1);
    expect(await reasonOf(1)).toBe('disabled');
    expect(await reasonOf(2)).toBe('ok');
    expect(state.built).toBe(3);
    tell(2);
    expect(await reasonOf(2)).toBe('paused');
  });

  it('decides every actuator again when the epoch moves (a change not told actuator by actuator)', async () => {
    const { current, reasonOf, state } = setUp();
    expect(await reasonOf(1)).toBe('waiting');
    expect(await reasonOf(2)).toBe('ok');
    current.set(1, inputWith(CAUSES.restarted));
    current.set(2, inputWith(CAUSES.restarted));
    state.epoch++;
    expect(await reasonOf(1)).toBe('restarted');
    expect(await reasonOf(2)).toBe('restarted');
  });

  it('keeps a decision no time can change until its inputs change', async () => {
    const { clock, current, reasonOf, state, tell } = setUp();
    current.set(1, inputWith(CAUSES.disabled));
    expect(await reasonOf(1)).toBe('disabled');
    clock.now = NOW + 10 * 365 * 86_400_000;
    expect(await reasonOf(1)).toBe('disabled');
    expect(state.built).toBe(1);
    current.set(1, inputWith(CAUSES.waiting));
    tell(1);
    // Ten years on, its reading is long stale.
    expect(await reasonOf(1)).toBe('stale');
  });

  it('answers a decision whose inputs had to be read from the store, and keeps none of those', async () => {
    const { decisions, reasonOf, state } = setUp();
    state.fromStore = true;
    const read = decisions.of(1);
    expect(read).toBeInstanceOf(Promise);
    expect((await read)?.decision.reason).toBe('waiting');
    expect(await reasonOf(1)).toBe('waiting');
    expect(state.built).toBe(2);
    state.fromStore = false;
    expect(await reasonOf(1)).toBe('waiting');
    expect(await reasonOf(1)).toBe('waiting');
    expect(state.built).toBe(3);
  });

  it('answers undefined for an actuator that does not exist, and forgets one that is gone', async () => {
    const { current, decisions, tell } = setUp();
    expect(decisions.of(9)).toBeUndefined();
    expect(await decisions.of(1)).toBeDefined();
    current.delete(1);
    tell(1);
    expect(decisions.of(1)).toBeUndefined();
  });
});
