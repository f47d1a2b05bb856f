import { describe, expect, it } from 'vitest';
import { volumeIssues } from '../../src/actuators/safety-settings.js';
import { MAX_DOSE_ML } from '../../src/safety/index.js';

const settings = (fields: Partial<Parameters<typeof volumeIssues>[0]>) =>
  volumeIssues({ flow_ml_per_s: null, max_ml_per_day: null, stock_ml: null, activation_duration: 10, ...fields }, ['body']);

describe('volume settings', () => {
  it('takes a dose of exactly MAX_DOSE_ML, and refuses one over it', () => {
    expect(settings({ flow_ml_per_s: MAX_DOSE_ML / 10 })).toEqual([]);
    expect(settings({ flow_ml_per_s: (MAX_DOSE_ML / 10) * 1.000001 })).toEqual([
      expect.objectContaining({ loc: ['body', 'flow_ml_per_s'], type: 'volume_too_large' }),
    ]);
  });

  it('refuses a product that overflows to Infinity', () => {
    expect(settings({ flow_ml_per_s: 1e308 })).toHaveLength(1);
    expect(settings({ flow_ml_per_s: 1e300, activation_duration: 1e300 })).toHaveLength(1);
  });

  it('takes a run of 0 s at any flow', () => {
    expect(settings({ flow_ml_per_s: 1e308, activation_duration: 0 })).toEqual([]);
  });

  it('still asks for a flow before a daily ml limit or a stock', () => {
    expect(settings({ max_ml_per_day: 5, stock_ml: 5 }).map((i) => i.type)).toEqual(['volume_needs_flow', 'volume_needs_flow']);
    expect(settings({ flow_ml_per_s: 1, max_ml_per_day: 5, stock_ml: 5 })).toEqual([]);
  });
});
