import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STATUS } from '../../src/domain/activation.js';
import { decide, REASONS, type DecisionInput, type Reason } from '../../src/safety/index.js';
import { CAUSES, inputWith, NOW, runningInput, STALE_MS, STARTED, waterLevel } from '../helpers/safety-input.js';

const reasonOf = (...changes: ((i: DecisionInput) => void)[]) => decide(inputWith(...changes)).reason;
const blockedReasons = REASONS.filter((r): r is Exclude<Reason, 'ok'> => r !== 'ok');

describe('decide: the running case', () => {
  it('runs when every rule passes and the condition holds, with duration and period', () => {
    expect(decide(runningInput())).toEqual({ activate: true, status: 'OK', reason: 'ok', duration: 5, period: 300, conditionMet: true });
  });

  it('answers ok without running when the condition does not hold', () => {
    expect(decide(inputWith((i) => (i.sensor.newest!.value = 5)))).toEqual({
      activate: false,
      status: 'OK',
      reason: 'ok',
      duration: 5,
      period: 300,
      conditionMet: false,
    });
  });

  it.each([
    ['high', 7, true],
    ['high', 6, false],
    ['low', 5, true],
    ['low', 6, false],
    ['low_or_high', 5, true],
    ['low_or_high', 7, true],
    ['low_or_high', 6, false],
    ['always', 6, true],
  ] as const)('%s on %d against 6 activates: %s', (condition, value, expected) => {
    const decision = decide(
      inputWith((i) => {
        i.actuator.activation_condition = condition;
        i.sensor.newest!.value = value;
      }),
    );
    expect(decision).toMatchObject({ reason: 'ok', activate: expected, conditionMet: expected });
  });
});

describe('decide: every reason, in order', () => {
  it('lists exactly the reasons of the contract, in its order', () => {
    expect(REASONS).toEqual([
      'disabled',
      'paused',
      'locked_out',
      'unusual',
      'no_measurement',
      'restarted',
      'stale',
      'invalid',
      'stuck',
      'interlock',
      'empty',
      'waiting',
      'zero_duration',
      'limit',
      'sequenced',
      'ok',
    ]);
  });

  it.each(blockedReasons)('%s alone: that reason, no activation, duration and period unchanged', (reason) => {
    const decision = decide(inputWith(CAUSES[reason]));
    expect(decision.reason).toBe(reason);
    expect(decision.activate).toBe(false);
    expect(decision).toMatchObject({ duration: reason === 'zero_duration' ? 0 : 5, period: 300 });
  });

  // A lockout and a hold on unusual consumption are one field of two kinds: never both at once.
  const exclusive = (a: string, b: string) => [a, b].includes('locked_out') && [a, b].includes('unusual');
  const pairs = blockedReasons.flatMap((first, n) =>
    blockedReasons
      .slice(n + 1)
      .filter((later) => !exclusive(first, later))
      .map((later) => [first, later] as const),
  );
  it.each(pairs)('%s beats %s when both apply', (first, later) => {
    expect(reasonOf(CAUSES[later], CAUSES[first])).toBe(first);
    expect(reasonOf(CAUSES[first], CAUSES[later])).toBe(first);
  });

  it('every cause at once: disabled', () => {
    expect(reasonOf(...Object.values(CAUSES))).toBe('disabled');
  });

  it('keeps the existing statuses word for word', () => {
    expect(decide(inputWith(CAUSES.disabled)).status).toBe(STATUS.disabled);
    expect(decide(inputWith(CAUSES.no_measurement)).status).toBe(STATUS.noMeasurement);
    expect(decide(inputWith(CAUSES.stale)).status).toBe(STATUS.stale);
    expect(decide(inputWith(CAUSES.waiting)).status).toBe(STATUS.waiting);
    expect(decide(inputWith(CAUSES.zero_duration)).status).toBe(STATUS.zeroDuration);
    expect(decide(runningInput()).status).toBe(STATUS.ok);
    expect(STATUS).toEqual({
      disabled: 'Actuator disabled',
      noMeasurement: 'No measurement for the sensor',
      stale: 'Last measurement too old: sensor possibly disconnected',
      waiting: 'Activation period not elapsed',
      zeroDuration: 'Activation duration is 0',
      ok: 'OK',
    });
  });

  it('says in words what holds the pump for the new reasons', () => {
    const status = (cause: (i: DecisionInput) => void) => decide(inputWith(cause)).status;
    expect(status(CAUSES.paused)).toBe('Prototype paused until 2027-01-15T08:01:00.000Z');
    expect(status(CAUSES.locked_out)).toBe('Locked out since 2027-01-15T07:59:00.000Z: 20 unanswered doses in a row');
    expect(status(CAUSES.restarted)).toBe('Waiting for a measurement received since the service started');
    expect(status(CAUSES.invalid)).toBe('Measurement 15 outside the valid range 0..14');
    expect(status(CAUSES.stuck)).toBe('Sensor possibly stuck: 7 unchanged since 2027-01-15T07:50:00.000Z');
    expect(status(CAUSES.interlock)).toBe('Interlock: water level #5 is 12 (below 20)');
    expect(status(CAUSES.empty)).toBe('Stock empty: refill the bottle');
    expect(status(CAUSES.limit)).toBe('Dose limit: at most 1 doses per hour');
  });
});

describe('decide: boundaries', () => {
  it('a pause ending exactly now no longer holds; a millisecond later it does', () => {
    expect(reasonOf((i) => (i.pausedUntil = NOW))).toBe('ok');
    expect(reasonOf((i) => (i.pausedUntil = NOW + 1))).toBe('paused');
    expect(reasonOf((i) => (i.pausedUntil = NOW - 1))).toBe('ok');
  });

  it('a reading received exactly at the start counts as received since; one millisecond before does not', () => {
    expect(reasonOf((i) => (i.sensor.newest!.received_at = STARTED))).toBe('ok');
    expect(reasonOf((i) => (i.sensor.newest!.received_at = STARTED - 1))).toBe('restarted');
  });

  it('restarted reads the receipt time, not the device time', () => {
    expect(reasonOf((i) => (i.sensor.newest!.timestamp = STARTED - 60_000))).toBe('ok');
  });

  it('stale is strictly older than stale_after; exactly that old is fresh', () => {
    const aged = (ms: number, staleAfter: number | null) => (i: DecisionInput) => {
      i.sensor.settings.stale_after = staleAfter;
      i.sensor.newest!.timestamp = NOW - ms;
    };
    expect(reasonOf(aged(60_000, 60))).toBe('ok');
    expect(reasonOf(aged(60_001, 60))).toBe('stale');
    expect(reasonOf(aged(STALE_MS, null))).toBe('ok');
    expect(reasonOf(aged(STALE_MS + 1, null))).toBe('stale');
    expect(reasonOf(aged(2007, 2.007))).toBe('ok');
    expect(reasonOf(aged(2008, 2.007))).toBe('stale');
    expect(reasonOf(aged(0, 0))).toBe('ok');
    expect(reasonOf(aged(1, 0))).toBe('stale');
  });

  it('a sensor stale_after overrides the default either way', () => {
    expect(reasonOf((i) => (i.sensor.settings.stale_after = 0.5))).toBe('stale');
    expect(reasonOf((i) => ((i.sensor.settings.stale_after = 2 * 86_400), (i.sensor.newest!.timestamp = NOW - STALE_MS - 1)))).toBe('ok');
  });

  it('a reading from the future is fresh', () => {
    expect(reasonOf((i) => (i.sensor.newest!.timestamp = NOW + 60_000))).toBe('ok');
  });

  it('the valid range includes its bounds', () => {
    const value = (v: number) => (i: DecisionInput) => (i.sensor.newest!.value = v);
    expect(reasonOf(value(14))).toBe('ok');
    expect(reasonOf(value(14.000001))).toBe('invalid');
    expect(reasonOf(value(0), (i) => (i.actuator.activation_condition = 'low'))).toBe('ok');
    expect(reasonOf(value(-0.1))).toBe('invalid');
    const own = (i: DecisionInput) => ((i.sensor.settings.valid_min = 5), (i.sensor.settings.valid_max = 8));
    expect(reasonOf(own, value(8))).toBe('ok');
    expect(reasonOf(own, value(8.01))).toBe('invalid');
    expect(reasonOf(own, value(5), (i) => (i.actuator.activation_condition = 'always'))).toBe('ok');
    expect(reasonOf(own, value(4.99))).toBe('invalid');
  });

  it('stuck needs 3 equal readings, the first at least stuck_after old', () => {
    const run = (count: number, ageMs: number) => (i: DecisionInput) => {
      i.sensor.settings.stuck_after = 600;
      i.sensor.run = { count, since: NOW - ageMs };
    };
    expect(reasonOf(run(3, 600_000))).toBe('stuck');
    expect(reasonOf(run(3, 599_999))).toBe('ok');
    expect(reasonOf(run(2, 3600_000))).toBe('ok');
    expect(reasonOf(run(50, 600_000))).toBe('stuck');
    expect(reasonOf(run(3, -60_000))).toBe('ok');
    expect(reasonOf((i) => (i.sensor.run = { count: 99, since: NOW - 86_400_000 }))).toBe('ok');
  });

  it('empty at 0 (or below), not with any stock left, not when stock is not tracked', () => {
    expect(reasonOf((i) => (i.actuator.stock_ml = 0))).toBe('empty');
    expect(reasonOf((i) => (i.actuator.stock_ml = -1))).toBe('empty');
    expect(reasonOf((i) => (i.actuator.stock_ml = 0.001))).toBe('ok');
    expect(reasonOf((i) => (i.actuator.stock_ml = null))).toBe('ok');
  });

  it('the period: exactly elapsed allows, one millisecond short waits, a future last_activated waits', () => {
    expect(reasonOf((i) => (i.actuator.last_activated = NOW - 300_000))).toBe('ok');
    expect(reasonOf((i) => (i.actuator.last_activated = NOW - 299_999))).toBe('waiting');
    expect(reasonOf((i) => ((i.actuator.activation_period = 0), (i.actuator.last_activated = NOW + 1)))).toBe('waiting');
    expect(reasonOf((i) => ((i.actuator.activation_period = 2.007), (i.actuator.last_activated = NOW - 2007)))).toBe('ok');
  });

  it('doses per hour: one more must fit; a dose exactly an hour old has left the window', () => {
    const doses =
      (max: number, ...agesMs: number[]) =>
      (i: DecisionInput) => {
        i.actuator.max_doses_per_hour = max;
        i.doses = agesMs.map((age) => ({ activated_at: NOW - age, duration: 5, volume_ml: null }));
      };
    expect(reasonOf(doses(3, 60_000, 120_000))).toBe('ok');
    expect(reasonOf(doses(3, 60_000, 120_000, 180_000))).toBe('limit');
    expect(reasonOf(doses(3, 60_000, 120_000, 3600_000))).toBe('ok');
    expect(reasonOf(doses(3, 60_000, 120_000, 3599_999))).toBe('limit');
    expect(reasonOf(doses(3, 60_000, 120_000, -60_000))).toBe('limit');
    expect(reasonOf(doses(1))).toBe('ok');
  });

  it('seconds per day: this dose included, at the limit is allowed, over it is not', () => {
    const used =
      (max: number, ...durations: number[]) =>
      (i: DecisionInput) => {
        i.actuator.max_seconds_per_day = max;
        i.doses = durations.map((duration, n) => ({ activated_at: NOW - 3600_000 * (n + 1), duration, volume_ml: null }));
      };
    expect(reasonOf(used(15, 5, 5))).toBe('ok');
    expect(reasonOf(used(15, 5, 5.5))).toBe('limit');
    expect(reasonOf(used(15, 5, 4.5))).toBe('ok');
    expect(reasonOf(used(4))).toBe('limit');
    expect(reasonOf(used(5))).toBe('ok');
    expect(
      reasonOf(
        (i) => ((i.actuator.max_seconds_per_day = 5), (i.doses = [{ activated_at: NOW - 86_400_000, duration: 5, volume_ml: null }])),
      ),
    ).toBe('ok');
    expect(
      reasonOf(
        (i) => ((i.actuator.max_seconds_per_day = 5), (i.doses = [{ activated_at: NOW - 86_399_999, duration: 5, volume_ml: null }])),
      ),
    ).toBe('limit');
  });

  it('ml per day applies only with a flow, this dose included', () => {
    const ml =
      (flow: number | null, max: number, ...volumes: (number | null)[]) =>
      (i: DecisionInput) => {
        i.actuator.flow_ml_per_s = flow;
        i.actuator.max_ml_per_day = max;
        i.doses = volumes.map((volume_ml, n) => ({ activated_at: NOW - 3600_000 * (n + 1), duration: 5, volume_ml }));
      };
    expect(reasonOf(ml(2, 30, 10, 10))).toBe('ok');
    expect(reasonOf(ml(2, 30, 10, 10.5))).toBe('limit');
    expect(reasonOf(ml(2, 9))).toBe('limit');
    expect(reasonOf(ml(2, 10))).toBe('ok');
    expect(reasonOf(ml(null, 1, 100))).toBe('ok');
    // A dose recorded without a volume counts at today's flow: 2 × 5 s = 10 ml.
    expect(reasonOf(ml(2, 30, null, 10))).toBe('ok');
    expect(reasonOf(ml(2, 29, null, 10))).toBe('limit');
  });

  it('ml per day over a rolling 24 h: a dose exactly a day old has left it, one a millisecond younger has not', () => {
    const dayOld = (ageMs: number) => (i: DecisionInput) => {
      Object.assign(i.actuator, { flow_ml_per_s: 2, max_ml_per_day: 10 });
      i.doses = [{ activated_at: NOW - ageMs, duration: 5, volume_ml: 10 }];
    };
    expect(reasonOf(dayOld(86_400_000))).toBe('ok');
    expect(reasonOf(dayOld(86_399_999))).toBe('limit');
  });

  it('names the first limit that holds', () => {
    const all = (i: DecisionInput) => {
      Object.assign(i.actuator, { max_doses_per_hour: 1, max_seconds_per_day: 1, max_ml_per_day: 1, flow_ml_per_s: 1 });
      i.doses = [{ activated_at: NOW - 1000, duration: 5, volume_ml: 5 }];
    };
    expect(decide(inputWith(all)).status).toBe('Dose limit: at most 1 doses per hour');
    expect(decide(inputWith(all, (i) => (i.actuator.max_doses_per_hour = null))).status).toBe(
      'Dose limit: at most 1 s of run time per 24 h',
    );
    expect(decide(inputWith(all, (i) => ((i.actuator.max_doses_per_hour = null), (i.actuator.max_seconds_per_day = null)))).status).toBe(
      'Dose limit: at most 1 ml per 24 h',
    );
  });

  it('limit is reported whether or not the condition holds; conditionMet tells which', () => {
    expect(decide(inputWith(CAUSES.limit))).toMatchObject({ reason: 'limit', activate: false, conditionMet: true });
    expect(decide(inputWith(CAUSES.limit, (i) => (i.sensor.newest!.value = 5)))).toMatchObject({
      reason: 'limit',
      activate: false,
      conditionMet: false,
    });
  });
});

describe('decide: interlocks fail closed', () => {
  const interlock =
    (block_below: number | null, block_above: number | null, sensor = waterLevel(50)) =>
    (i: DecisionInput) => {
      i.actuator.interlocks = [{ sensor_id: 5, block_below, block_above }];
      i.interlockSensors = [sensor];
    };
  const decision = (...changes: ((i: DecisionInput) => void)[]) => decide(inputWith(...changes));

  it('blocks strictly below block_below and strictly above block_above; exactly at a bound does not block', () => {
    expect(decision(interlock(20, null, waterLevel(19.99))).status).toBe('Interlock: water level #5 is 19.99 (below 20)');
    expect(decision(interlock(20, null, waterLevel(20))).reason).toBe('ok');
    expect(decision(interlock(null, 80, waterLevel(80.5))).status).toBe('Interlock: water level #5 is 80.5 (above 80)');
    expect(decision(interlock(null, 80, waterLevel(80))).reason).toBe('ok');
    expect(decision(interlock(20, 80, waterLevel(50))).reason).toBe('ok');
  });

  it("names the interlock sensor by the grower's name when it has one, else by its type and id", () => {
    const named = waterLevel(10);
    named.settings = { ...named.settings, sensor_name: 'Tank level' };
    expect(decision(interlock(20, null, named)).status).toBe('Interlock: Tank level is 10 (below 20)');
    const unnamed = waterLevel(10);
    unnamed.settings = { ...unnamed.settings, sensor_name: '' };
    expect(decision(interlock(20, null, unnamed)).status).toBe('Interlock: water level #5 is 10 (below 20)');
    expect(decision(interlock(20, null, named)).activate).toBe(false);
  });

  it('blocks when the interlock sensor has no reading, or is not among the inputs at all', () => {
    const none = { ...waterLevel(0), newest: null };
    expect(decision(interlock(20, null, none)).status).toBe('Interlock: water level #5 has no measurement');
    expect(decision(interlock(20, null), (i) => (i.interlockSensors = [])).status).toBe('Interlock: sensor #5 has no measurement');
  });

  it('blocks on a stale, invalid or stuck interlock reading, even within its bounds', () => {
    const stale = waterLevel(50);
    stale.newest!.timestamp = NOW - STALE_MS - 1;
    expect(decision(interlock(20, null, stale)).status).toBe('Interlock: water level #5 last measurement too old');
    const ownStale = waterLevel(50);
    ownStale.settings.stale_after = 60;
    ownStale.newest!.timestamp = NOW - 60_000;
    expect(decision(interlock(20, null, ownStale)).reason).toBe('ok');
    ownStale.newest!.timestamp = NOW - 60_001;
    expect(decision(interlock(20, null, ownStale)).reason).toBe('interlock');
    expect(decision(interlock(20, null, waterLevel(-1))).status).toBe('Interlock: water level #5 is -1, outside its valid range ≥ 0');
    const stuck = waterLevel(50);
    stuck.settings.stuck_after = 60;
    stuck.run = { count: 3, since: NOW - 60_000 };
    expect(decision(interlock(20, null, stuck)).status).toBe('Interlock: water level #5 is possibly stuck at 50');
    stuck.run = { count: 2, since: NOW - 60_000 };
    expect(decision(interlock(20, null, stuck)).reason).toBe('ok');
  });

  it('does not ask an interlock sensor for a reading received since the start', () => {
    const old = waterLevel(50);
    old.newest!.received_at = STARTED - 1;
    expect(decision(interlock(20, null, old)).reason).toBe('ok');
  });

  it('names the first blocking interlock in the actuator order', () => {
    const both = (i: DecisionInput) => {
      i.actuator.interlocks = [
        { sensor_id: 5, block_below: 20, block_above: null },
        { sensor_id: 6, block_below: null, block_above: 30 },
        { sensor_id: 7, block_below: 0, block_above: null },
      ];
      i.interlockSensors = [
        waterLevel(10, 5),
        { ...waterLevel(35, 6), settings: { ...waterLevel(35, 6).settings, sensor_type: 'temperature' } },
      ];
    };
    expect(decision(both).status).toBe('Interlock: water level #5 is 10 (below 20)');
    expect(decision(both, (i) => (i.interlockSensors[0].newest!.value = 25)).status).toBe('Interlock: temperature #6 is 35 (above 30)');
    expect(
      decision(
        both,
        (i) => (i.interlockSensors[0].newest!.value = 25),
        (i) => (i.interlockSensors[1].newest!.value = 30),
      ).status,
    ).toBe('Interlock: sensor #7 has no measurement');
  });

  it('the same sensor may be the actuator sensor and an interlock', () => {
    const self = (i: DecisionInput) => {
      i.actuator.interlocks = [{ sensor_id: 1, block_below: null, block_above: 6.5 }];
      i.interlockSensors = [i.sensor];
    };
    expect(decision(self).status).toBe('Interlock: ph #1 is 7 (above 6.5)');
  });
});

describe('decide: what cannot be compared says no', () => {
  const no = (...changes: ((i: DecisionInput) => unknown)[]) => {
    const d = decide(inputWith(...changes));
    expect(d.activate).toBe(false);
    return d.reason;
  };
  const nan = Number.NaN;
  const absent = undefined as unknown as null;

  const cases: [string, (i: DecisionInput) => unknown, Reason][] = [
    ['enabled not exactly true', (i: DecisionInput) => (i.actuator.enabled = 1 as unknown as boolean), 'disabled'],
    ['paused_until NaN', (i: DecisionInput) => (i.pausedUntil = nan), 'paused'],
    ['paused_until absent', (i: DecisionInput) => (i.pausedUntil = absent), 'paused'],
    ['lockout absent', (i: DecisionInput) => (i.actuator.lockout = absent), 'locked_out'],
    ['newest absent', (i: DecisionInput) => (i.sensor.newest = absent), 'no_measurement'],
    ['sensor absent', (i: DecisionInput) => (i.sensor = absent as never), 'no_measurement'],
    ['received_at NaN', (i: DecisionInput) => (i.sensor.newest!.received_at = nan), 'restarted'],
    ['received_at absent', (i: DecisionInput) => (i.sensor.newest!.received_at = absent as never), 'restarted'],
    ['process start NaN', (i: DecisionInput) => (i.processStartedAt = nan), 'restarted'],
    ['timestamp NaN', (i: DecisionInput) => (i.sensor.newest!.timestamp = nan), 'stale'],
    ['now NaN', (i: DecisionInput) => (i.now = nan), 'stale'],
    ['stale default NaN', (i: DecisionInput) => (i.staleAfterDefaultMs = nan), 'stale'],
    ['stale_after NaN', (i: DecisionInput) => (i.sensor.settings.stale_after = nan), 'stale'],
    ['stale_after absent', (i: DecisionInput) => (i.sensor.settings.stale_after = absent), 'stale'],
    ['value NaN', (i: DecisionInput) => (i.sensor.newest!.value = nan), 'invalid'],
    ['value infinite', (i: DecisionInput) => (i.sensor.newest!.value = Infinity), 'invalid'],
    ['valid_max NaN', (i: DecisionInput) => (i.sensor.settings.valid_max = nan), 'invalid'],
    ['stuck_after NaN', (i: DecisionInput) => ((i.sensor.settings.stuck_after = nan), (i.sensor.run = { count: 3, since: NOW })), 'stuck'],
    ['stuck run absent', (i: DecisionInput) => ((i.sensor.settings.stuck_after = 60), (i.sensor.run = null)), 'stuck'],
    [
      'stuck run since NaN',
      (i: DecisionInput) => ((i.sensor.settings.stuck_after = 60), (i.sensor.run = { count: 3, since: nan })),
      'stuck',
    ],
    [
      'stuck run count NaN',
      (i: DecisionInput) => ((i.sensor.settings.stuck_after = 60), (i.sensor.run = { count: nan, since: NOW - 3600_000 })),
      'stuck',
    ],
    [
      'interlock bound NaN',
      (i: DecisionInput) => (i.actuator.interlocks = [{ sensor_id: 5, block_below: nan, block_above: null }]),
      'interlock',
    ],
    [
      'interlock reading NaN',
      (i: DecisionInput) => (
        (i.actuator.interlocks = [{ sensor_id: 5, block_below: 0, block_above: null }]),
        (i.interlockSensors[0].newest!.value = nan)
      ),
      'interlock',
    ],
    ['interlocks absent', (i: DecisionInput) => (i.actuator.interlocks = absent as never), 'interlock'],
    ['interlock sensors absent', (i: DecisionInput) => (i.interlockSensors = absent as never), 'interlock'],
    ['stock NaN', (i: DecisionInput) => (i.actuator.stock_ml = nan), 'empty'],
    ['stock absent', (i: DecisionInput) => (i.actuator.stock_ml = absent), 'empty'],
    ['last_activated NaN', (i: DecisionInput) => (i.actuator.last_activated = nan), 'waiting'],
    ['last_activated absent', (i: DecisionInput) => (i.actuator.last_activated = absent as never), 'waiting'],
    ['period NaN', (i: DecisionInput) => (i.actuator.activation_period = nan), 'waiting'],
    ['duration NaN', (i: DecisionInput) => (i.actuator.activation_duration = nan), 'zero_duration'],
    ['max doses NaN', (i: DecisionInput) => (i.actuator.max_doses_per_hour = nan), 'limit'],
    ['max doses absent', (i: DecisionInput) => (i.actuator.max_doses_per_hour = absent), 'limit'],
    ['max seconds NaN', (i: DecisionInput) => (i.actuator.max_seconds_per_day = nan), 'limit'],
    ['max ml absent with a flow', (i: DecisionInput) => ((i.actuator.flow_ml_per_s = 1), (i.actuator.max_ml_per_day = absent)), 'limit'],
    ['flow NaN with an ml limit', (i: DecisionInput) => ((i.actuator.flow_ml_per_s = nan), (i.actuator.max_ml_per_day = 100)), 'limit'],
    [
      'flow absent with an ml limit',
      (i: DecisionInput) => ((i.actuator.flow_ml_per_s = absent), (i.actuator.max_ml_per_day = 100)),
      'limit',
    ],
    [
      'dose time NaN',
      (i: DecisionInput) => ((i.actuator.max_doses_per_hour = 1), (i.doses = [{ activated_at: nan, duration: 5, volume_ml: null }])),
      'limit',
    ],
    [
      'dose duration NaN',
      (i: DecisionInput) => (
        (i.actuator.max_seconds_per_day = 100),
        (i.doses = [{ activated_at: NOW - 1000, duration: nan, volume_ml: null }])
      ),
      'limit',
    ],
    ['doses absent', (i: DecisionInput) => (i.doses = absent as never), 'limit'],
    ['condition value NaN', (i: DecisionInput) => (i.actuator.condition_value = nan), 'ok'],
    ['condition unknown', (i: DecisionInput) => (i.actuator.activation_condition = 'sometimes' as never), 'ok'],
  ];
  it.each(cases)('%s', (_name, change, reason) => {
    expect(no(change)).toBe(reason);
  });

  it('an interlock blocked by NaN names it', () => {
    const status = decide(
      inputWith((i) => (i.actuator.interlocks = [{ sensor_id: 5, block_below: Number.NaN, block_above: null }])),
    ).status;
    expect(status).toBe('Interlock: water level #5 is 50 (below NaN)');
  });

  it('a status never throws on an instant that is not a date', () => {
    expect(decide(inputWith((i) => (i.pausedUntil = Number.POSITIVE_INFINITY))).status).toBe('Prototype paused until Infinity');
  });
});

describe('decide: property', () => {
  const maybe = <T>(arb: fc.Arbitrary<T>) =>
    fc.oneof(arb, fc.constant(Number.NaN as unknown as T), fc.constant(null as unknown as T), fc.constant(undefined as unknown as T));
  const time = fc.integer({ min: NOW - 3 * 86_400_000, max: NOW + 3600_000 });
  const num = fc.double({ min: -50, max: 150, noNaN: true });
  const sensor = (sensor_id: number, sensor_type: 'ph' | 'water_level') =>
    fc.record({
      settings: fc.record({
        sensor_id: fc.constant(sensor_id),
        sensor_type: fc.constant(sensor_type),
        valid_min: maybe(num),
        valid_max: maybe(num),
        stale_after: maybe(fc.integer({ min: 0, max: 200_000 })),
        stuck_after: maybe(fc.integer({ min: 0, max: 200_000 })),
      }),
      newest: fc.option(fc.record({ value: maybe(num), timestamp: maybe(time), received_at: maybe(time) }), { nil: null }),
      run: fc.option(fc.record({ count: maybe(fc.integer({ min: 1, max: 5 })), since: maybe(time) }), { nil: null }),
    });
  const arbitraryInput = fc.record({
    actuator: fc.record({
      enabled: fc.oneof(fc.boolean(), fc.constant(undefined as unknown as boolean)),
      activation_condition: fc.constantFrom('high', 'low', 'low_or_high', 'always', 'sometimes' as never),
      condition_value: maybe(num),
      activation_period: maybe(fc.integer({ min: 0, max: 7200 })),
      activation_duration: maybe(fc.double({ min: 0, max: 60, noNaN: true })),
      last_activated: maybe(time),
      max_doses_per_hour: maybe(fc.integer({ min: 0, max: 5 })),
      max_seconds_per_day: maybe(fc.integer({ min: 0, max: 100 })),
      max_ml_per_day: maybe(fc.integer({ min: 0, max: 100 })),
      flow_ml_per_s: maybe(fc.double({ min: 0.1, max: 5, noNaN: true })),
      stock_ml: maybe(fc.integer({ min: -1, max: 100 })),
      lockout: fc.oneof(fc.constant(null), fc.constant({ since: NOW, reason: 'x' }), fc.constant(undefined as unknown as null)),
      interlocks: fc.array(fc.record({ sensor_id: fc.constantFrom(5, 6), block_below: maybe(num), block_above: maybe(num) }), {
        maxLength: 2,
      }),
    }),
    sensor: sensor(1, 'ph'),
    interlockSensors: fc.array(sensor(5, 'water_level'), { maxLength: 1 }),
    doses: fc.array(
      fc.record({ activated_at: maybe(time), duration: maybe(fc.double({ min: 0, max: 60, noNaN: true })), volume_ml: maybe(num) }),
      {
        maxLength: 4,
      },
    ),
    pausedUntil: maybe(time),
    processStartedAt: maybe(time),
    now: fc.oneof(fc.constant(NOW), maybe(time)),
    staleAfterDefaultMs: maybe(fc.integer({ min: 0, max: 2 * 86_400_000 })),
  }) as unknown as fc.Arbitrary<DecisionInput>;

  it('never activates unless the reason is ok and the condition holds', () => {
    fc.assert(
      fc.property(arbitraryInput, (input) => {
        const decision = decide(input);
        expect(REASONS).toContain(decision.reason);
        expect(typeof decision.status).toBe('string');
        if (decision.activate) {
          expect(decision.reason).toBe('ok');
          expect(decision.conditionMet).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('breaking any one rule of a running input stops it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...blockedReasons), (reason) => {
        expect(decide(inputWith(CAUSES[reason])).activate).toBe(false);
      }),
    );
  });
});
