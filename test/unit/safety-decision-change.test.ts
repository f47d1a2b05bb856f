import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { controllerOfflineAt, decide, isControllerOffline, nextDecisionChange, type DecisionInput } from '../../src/safety/index.js';
import { CAUSES, inputWith, NOW, STALE_MS, waterLevel } from '../helpers/safety-input.js';

const next = (...changes: ((i: DecisionInput) => void)[]) => nextDecisionChange(inputWith(...changes));
const at = (input: DecisionInput, now: number) => decide({ ...input, now });

/** The decision changes at `instant` and not a millisecond before. */
function expectChangeAt(input: DecisionInput, instant: number | null) {
  expect(nextDecisionChange(input)).toBe(instant);
  if (instant === null) return;
  expect(at(input, instant - 1)).toEqual(decide(input));
  expect(at(input, instant)).not.toEqual(decide(input));
}

describe('nextDecisionChange: the instants time alone changes the decision', () => {
  it('a running pump: when its reading turns stale', () => {
    expectChangeAt(inputWith(), NOW - 1000 + STALE_MS + 1);
  });

  it('a pause ending, exactly at paused_until', () => {
    expectChangeAt(inputWith(CAUSES.paused), NOW + 60_000);
    expectChangeAt(
      inputWith((i) => (i.pausedUntil = NOW + 0.5)),
      NOW + 1,
    );
  });

  it('the period elapsing, also for a decimal period', () => {
    expectChangeAt(inputWith(CAUSES.waiting), NOW - 1000 + 300_000);
    expectChangeAt(
      inputWith((i) => ((i.actuator.activation_period = 2.007), (i.actuator.last_activated = NOW - 1000))),
      NOW + 1007,
    );
  });

  it('a sensor turning stale at its own stale_after', () => {
    expectChangeAt(
      inputWith((i) => (i.sensor.settings.stale_after = 60)),
      NOW - 1000 + 60_001,
    );
  });

  it('a sensor turning stuck', () => {
    expectChangeAt(
      inputWith((i) => ((i.sensor.settings.stuck_after = 600), (i.sensor.run = { count: 3, since: NOW - 100_000 }))),
      NOW + 500_000,
    );
  });

  it('an interlock sensor turning stale or stuck, also while it already blocks by its bound', () => {
    const interlock =
      (sensorChange: (s: ReturnType<typeof waterLevel>) => void, value = 50) =>
      (i: DecisionInput) => {
        i.actuator.interlocks = [{ sensor_id: 5, block_below: 20, block_above: null }];
        const sensor = waterLevel(value);
        sensorChange(sensor);
        i.interlockSensors = [sensor];
        i.sensor.settings.stale_after = 3600;
      };
    expectChangeAt(inputWith(interlock((s) => (s.settings.stale_after = 30))), NOW - 1000 + 30_001);
    expectChangeAt(inputWith(interlock((s) => (s.settings.stale_after = 30), 12)), NOW - 1000 + 30_001);
    expectChangeAt(inputWith(interlock((s) => ((s.settings.stuck_after = 60), (s.run = { count: 4, since: NOW - 10_000 })))), NOW + 50_000);
  });

  it('a limit window freeing', () => {
    expectChangeAt(inputWith(CAUSES.limit), NOW - 60_000 + 3600_000);
    expectChangeAt(
      inputWith((i) => {
        i.actuator.max_seconds_per_day = 12;
        i.doses = [
          { activated_at: NOW - 7200_000, duration: 5, volume_ml: null },
          { activated_at: NOW - 3600_000, duration: 5, volume_ml: null },
        ];
      }),
      NOW - 7200_000 + 86_400_000,
    );
  });

  it('the ml window freeing: when enough volume has left the 24 h for one more dose', () => {
    // 10 ml a dose (5 s at 2 ml/s): 20 ml in the day + 10 > 25, until the older dose leaves; then 10 + 10 ≤ 25.
    expectChangeAt(
      inputWith((i) => {
        Object.assign(i.actuator, { max_ml_per_day: 25, flow_ml_per_s: 2 });
        i.doses = [
          { activated_at: NOW - 7200_000, duration: 5, volume_ml: 10 },
          { activated_at: NOW - 3600_000, duration: 5, volume_ml: 10 },
        ];
      }),
      NOW - 7200_000 + 86_400_000,
    );
    // A volume recorded at an older, larger flow counts as recorded: 30 ml leaves with its dose.
    expectChangeAt(
      inputWith((i) => {
        Object.assign(i.actuator, { max_ml_per_day: 25, flow_ml_per_s: 2 });
        i.doses = [
          { activated_at: NOW - 10_000_000, duration: 5, volume_ml: 30 },
          { activated_at: NOW - 3600_000, duration: 5, volume_ml: 10 },
        ];
      }),
      NOW - 10_000_000 + 86_400_000,
    );
  });

  it('the earliest of several', () => {
    expect(next(CAUSES.limit, (i) => (i.sensor.settings.stale_after = 120))).toBe(NOW - 1000 + 120_001);
    expect(next(CAUSES.waiting, (i) => (i.sensor.settings.stale_after = 120))).toBe(NOW - 1000 + 120_001);
    expect(next(CAUSES.waiting, (i) => (i.sensor.settings.stale_after = 600))).toBe(NOW - 1000 + 300_000);
  });

  it('nothing for what only a write can change', () => {
    expect(next(CAUSES.disabled)).toBeNull();
    expect(next(CAUSES.locked_out)).toBeNull();
    expect(next(CAUSES.no_measurement)).toBeNull();
    expect(next(CAUSES.restarted)).toBeNull();
    expect(next(CAUSES.stale)).toBeNull();
    // Stuck stays stuck; only its turning stale (an earlier reason) is left to time.
    expectChangeAt(inputWith(CAUSES.stuck), NOW - 1000 + STALE_MS + 1);
    expect(next(CAUSES.stuck, (i) => (i.sensor.settings.stale_after = 0.5))).toBeNull();
    // A dose without a time never leaves the window: only the reading turning stale is left.
    expect(next(CAUSES.limit, (i) => (i.doses = [{ activated_at: Number.NaN, duration: 5, volume_ml: null }]))).toBe(
      NOW - 1000 + STALE_MS + 1,
    );
    expect(next((i) => (i.now = Number.NaN))).toBeNull();
  });

  it('only rules before the deciding one count: a later one cannot show while it holds', () => {
    // Paused for a minute, period elapsing in 30 s: only the pause end changes the decision.
    expect(next(CAUSES.paused, (i) => (i.actuator.last_activated = NOW - 270_000))).toBe(NOW + 60_000);
    // Empty: the period elapsing does not change it, the reading turning stale does.
    expect(next(CAUSES.empty, CAUSES.waiting, (i) => (i.sensor.settings.stale_after = 3600))).toBe(NOW - 1000 + 3600_001);
    // Invalid: the stuck moment does not change it, the stale moment does.
    expect(
      next(CAUSES.invalid, (i) => {
        i.sensor.settings.stuck_after = 60;
        i.sensor.run = { count: 3, since: NOW };
        i.sensor.settings.stale_after = 3600;
      }),
    ).toBe(NOW - 1000 + 3600_001);
  });

  it('property: the decision is the same at every instant before the next change', () => {
    const ms = fc.integer({ min: -120_000, max: 120_000 });
    const scenario = fc.record({
      pause: fc.option(ms, { nil: null }),
      readingAge: fc.integer({ min: -5_000, max: 200_000 }),
      staleAfter: fc.option(fc.constantFrom(30, 60.5, 150), { nil: null }),
      stuck: fc.option(fc.record({ after: fc.constantFrom(0, 10, 90.25), count: fc.integer({ min: 1, max: 4 }), age: ms }), { nil: null }),
      interlockAge: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
      interlockValue: fc.constantFrom(10, 20, 50),
      period: fc.constantFrom(0, 1.5, 60, 300),
      sinceLast: ms,
      doses: fc.array(fc.record({ age: fc.integer({ min: -10_000, max: 3700_000 }), duration: fc.constantFrom(1, 2.5, 5) }), {
        maxLength: 4,
      }),
      maxDoses: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
      maxSeconds: fc.option(fc.constantFrom(6, 10, 12.5), { nil: null }),
      probes: fc.array(fc.integer({ min: 1, max: 400_000 }), { minLength: 1, maxLength: 8 }),
    });
    fc.assert(
      fc.property(scenario, (s) => {
        const input = inputWith((i) => {
          i.pausedUntil = s.pause === null ? null : NOW + s.pause;
          i.sensor.newest!.timestamp = NOW - s.readingAge;
          i.sensor.settings.stale_after = s.staleAfter;
          i.staleAfterDefaultMs = 180_000;
          if (s.stuck) {
            i.sensor.settings.stuck_after = s.stuck.after;
            i.sensor.run = { count: s.stuck.count, since: NOW - s.stuck.age };
          }
          if (s.interlockAge !== null) {
            i.actuator.interlocks = [{ sensor_id: 5, block_below: 20, block_above: null }];
            const sensor = waterLevel(s.interlockValue);
            sensor.newest!.timestamp = NOW - s.interlockAge;
            sensor.settings.stale_after = 100;
            i.interlockSensors = [sensor];
          }
          i.actuator.activation_period = s.period;
          i.actuator.last_activated = NOW - s.sinceLast;
          i.actuator.max_doses_per_hour = s.maxDoses;
          i.actuator.max_seconds_per_day = s.maxSeconds;
          i.doses = s.doses.map((d) => ({ activated_at: NOW - d.age, duration: d.duration, volume_ml: null }));
        });
        const now = decide(input);
        const change = nextDecisionChange(input);
        if (change !== null) expect(change).toBeGreaterThan(NOW);
        for (const probe of s.probes) {
          const t = change === null ? NOW + probe : NOW + (probe % (change - NOW));
          expect(at(input, t), `at now + ${t - NOW} ms, next change ${change === null ? 'never' : change - NOW}`).toEqual(now);
        }
        if (change !== null) expect(at(input, change - 1)).toEqual(now);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('controllerOfflineAt', () => {
  it('counts the timeout from the later of the last read and the last run report', () => {
    expect(controllerOfflineAt(NOW, NOW - 60_000, 120)).toBe(NOW + 120_000);
    expect(controllerOfflineAt(NOW - 60_000, NOW, 120)).toBe(NOW + 120_000);
    expect(controllerOfflineAt(null, NOW, 120)).toBe(NOW + 120_000);
    expect(controllerOfflineAt(NOW, null, 0.5)).toBe(NOW + 500);
  });

  it('is exact for decimal timeouts', () => {
    expect(controllerOfflineAt(NOW, null, 2.007)).toBe(NOW + 2007);
  });

  it('offline at exactly the timeout, not a millisecond before', () => {
    expect(isControllerOffline(NOW, NOW, 60, NOW + 59_999)).toBe(false);
    expect(isControllerOffline(NOW, NOW, 60, NOW + 60_000)).toBe(true);
  });

  it('null without a timeout, or without a contact time to count from', () => {
    expect(controllerOfflineAt(NOW, NOW, null)).toBeNull();
    expect(controllerOfflineAt(null, null, 60)).toBeNull();
    expect(controllerOfflineAt(Number.NaN, NOW, 60)).toBe(NOW + 60_000);
    expect(controllerOfflineAt(NOW, NOW, Number.NaN)).toBeNull();
    expect(controllerOfflineAt(NOW, NOW, -1)).toBeNull();
    expect(isControllerOffline(NOW, NOW, null, NOW + 1e12)).toBe(false);
  });
});
