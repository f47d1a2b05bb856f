import { describe, expect, it } from 'vitest';
import { describeDependents } from '../../src/domain/dependents.js';

describe('describeDependents', () => {
  it('names only the counts that are not zero, singular for one', () => {
    expect(describeDependents({ actuators: 0, measurements: 3 })).toBe('3 measurements');
    expect(describeDependents({ actuators: 1, measurements: 0 })).toBe('1 actuator');
    expect(describeDependents({ actuators: 1, measurements: 1 })).toBe('1 actuator and 1 measurement');
    expect(describeDependents({ sensors: 2, actuators: 0, measurements: 1204 })).toBe('2 sensors and 1,204 measurements');
    expect(describeDependents({ sensors: 3, actuators: 2, measurements: 5210 })).toBe('3 sensors, 2 actuators and 5,210 measurements');
    expect(describeDependents({ sensors: 0, actuators: 0, measurements: 0, notes: 1 })).toBe('1 note');
    expect(describeDependents({ sensors: 1, actuators: 0, measurements: 4, notes: 12 })).toBe('1 sensor, 4 measurements and 12 notes');
  });

  it('says so when nothing is counted', () => {
    expect(describeDependents({ sensors: 0, actuators: 0, measurements: 0 })).toBe('nothing else');
    expect(describeDependents({ sensors: 0, actuators: 0, measurements: 0, notes: 0 })).toBe('nothing else');
  });
});
