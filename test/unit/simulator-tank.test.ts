import { describe, expect, it } from 'vitest';
import { doseWithFaults, LOW_WATER_LEVEL, readingsWithFaults, STUCK_PH, tankWithFaults } from '../../src/simulator/faults.js';
import { nextNoise } from '../../src/simulator/random.js';
import { addDose, advanceTank, DEFAULT_TANK, readTank, startTank, temperatureAt, type TankState } from '../../src/simulator/tank.js';

const params = DEFAULT_TANK;

/** The tank after `seconds`, advanced in steps of `step` seconds. */
function run(state: TankState, seconds: number, step = 10, tank = params): TankState {
  let s = state;
  for (let t = 0; t < seconds; t += step) s = advanceTank(s, tank, step);
  return s;
}

describe('the tank model', () => {
  it('lets the pH rise without doses, as plants feed', () => {
    const later = run(startTank(params, 1), 3600);
    expect(later.ph).toBeCloseTo(params.startPh + params.phRisePerHour, 6);
  });

  it('lowers the pH by an acid dose only once the mixing delay has passed', () => {
    const dosed = addDose(startTank(params, 1), params, 'acid', 2);
    const undosed = startTank(params, 1);
    const justBefore = params.mixingDelaySeconds - 1;
    expect(run(dosed, justBefore, 1).ph).toBeCloseTo(run(undosed, justBefore, 1).ph, 9);
    const after = params.mixingDelaySeconds + 10;
    const drop = run(undosed, after).ph - run(dosed, after).ph;
    expect(drop).toBeCloseTo(2 * params.acidPhPerSecond, 9);
  });

  it('does nothing with the doses of an empty acid bottle', () => {
    const empty = tankWithFaults(params, ['empty-acid']);
    const dosed = run(addDose(startTank(empty, 1), empty, 'acid', 20), 3600, 10, empty);
    expect(dosed.ph).toBeCloseTo(run(startTank(empty, 1), 3600, 10, empty).ph, 9);
  });

  it('raises the pH by a dose from the wrong bottle as much as acid would lower it', () => {
    const after = params.mixingDelaySeconds + 10;
    const rise = run(addDose(startTank(params, 1), params, 'base', 2), after).ph - run(startTank(params, 1), after).ph;
    expect(rise).toBeCloseTo(2 * params.acidPhPerSecond, 9);
  });

  it('a fault that starts later: the bottle empties, the wrong bottle goes in, the probe drifts or freezes from then on', () => {
    expect(doseWithFaults([], 10)).toBe('acid');
    expect(doseWithFaults(['empty-acid'], 99, 100)).toBe('acid');
    expect(doseWithFaults(['empty-acid'], 100, 100)).toBeNull();
    expect(doseWithFaults(['wrong-bottle'], 100, 100)).toBe('base');
    expect(tankWithFaults(params, ['empty-acid'], 100).acidPhPerSecond).toBe(params.acidPhPerSecond);
    const readings = { ph: 6.5, ec: 1.8, temperature: 21, water_level: 80 };
    expect(readingsWithFaults(readings, ['drifting-ph'], 3599, 3600)).toEqual(readings);
    expect(readingsWithFaults(readings, ['drifting-ph'], 7200, 3600).ph).toBeCloseTo(6.75, 9);
    expect(readingsWithFaults(readings, ['stuck-ph'], 3600, 3600, 7.2).ph).toBe(7.2);
  });

  it('raises the EC by a nutrient dose after mixing, and lets it fall otherwise', () => {
    const plain = run(startTank(params, 1), 3600);
    expect(plain.ec).toBeLessThan(params.startEc);
    const fed = run(addDose(startTank(params, 1), params, 'nutrient', 5), 3600);
    expect(fed.ec - plain.ec).toBeCloseTo(5 * params.nutrientEcPerSecond, 9);
  });

  it('lets the water level drop slowly, and a low-water tank start low', () => {
    const later = run(startTank(params, 1), 4 * 3600, 60);
    expect(later.waterLevel).toBeCloseTo(params.startWaterLevel - 4 * params.waterFallPerHour, 6);
    expect(startTank(tankWithFaults(params, ['low-water']), 1).waterLevel).toBe(LOW_WATER_LEVEL);
  });

  it('keeps the temperature on a day cycle: warmest mid-afternoon, coolest before dawn, the same a day later', () => {
    const at = (hourOfDay: number) => temperatureAt(params, (hourOfDay - params.startHourOfDay) * 3600);
    expect(at(15)).toBeCloseTo(params.temperatureMean + params.temperatureSwing, 6);
    expect(at(3)).toBeCloseTo(params.temperatureMean - params.temperatureSwing, 6);
    expect(temperatureAt(params, 5 * 3600)).toBeCloseTo(temperatureAt(params, 29 * 3600), 6);
  });

  it('keeps the pH within the buffer of the water however much acid goes in', () => {
    let s = startTank(params, 1);
    for (let i = 0; i < 500; i++) s = advanceTank(addDose(s, params, 'acid', 2), params, 300);
    expect(s.ph).toBe(params.phFloor);
  });

  it('refuses to run time backwards', () => {
    expect(() => advanceTank(startTank(params, 1), params, -1)).toThrow(RangeError);
  });
});

describe('the probe noise', () => {
  it('stays within the amplitude', () => {
    let state = 7;
    for (let i = 0; i < 10_000; i++) {
      const [noise, next] = nextNoise(state, 0.02);
      expect(Math.abs(noise)).toBeLessThanOrEqual(0.02);
      state = next;
    }
  });

  it('is the same for the same seed and differs for another', () => {
    const series = (seed: number) => {
      let s = startTank(params, seed);
      const values: number[] = [];
      for (let i = 0; i < 50; i++) {
        const read = readTank(s, params);
        values.push(read.readings.ph);
        s = advanceTank(read.state, params, 60);
      }
      return values;
    };
    expect(series(42)).toEqual(series(42));
    expect(series(42)).not.toEqual(series(43));
  });

  it('keeps every reading within the noise of the true value', () => {
    let s = startTank(params, 3);
    for (let i = 0; i < 500; i++) {
      const read = readTank(s, params);
      expect(Math.abs(read.readings.ph - s.ph)).toBeLessThanOrEqual(params.noise.ph + 0.0005);
      expect(Math.abs(read.readings.water_level - s.waterLevel)).toBeLessThanOrEqual(params.noise.water_level + 0.0005);
      s = advanceTank(read.state, params, 60);
    }
  });
});

describe('the probe faults', () => {
  const readings = { ph: 6.2, ec: 1.5, temperature: 20, water_level: 70 };

  it('freezes a stuck probe at one value', () => {
    expect(readingsWithFaults(readings, ['stuck-ph'], 0).ph).toBe(STUCK_PH);
    expect(readingsWithFaults({ ...readings, ph: 5 }, ['stuck-ph'], 7200).ph).toBe(STUCK_PH);
  });

  it('makes a drifting probe read higher as time goes on, and leaves the other probes alone', () => {
    const early = readingsWithFaults(readings, ['drifting-ph'], 0);
    const late = readingsWithFaults(readings, ['drifting-ph'], 4 * 3600);
    expect(early.ph).toBe(6.2);
    expect(late.ph).toBeCloseTo(7.2, 6);
    expect(late.ec).toBe(1.5);
    expect(readingsWithFaults(readings, [], 4 * 3600)).toEqual(readings);
  });
});
