import { describe, expect, it } from 'vitest';
import { changesText, settingsChanges } from '../../src/core/settings-changes.js';

describe('settingsChanges', () => {
  const before = {
    condition_value: 6.5,
    max_doses_per_hour: null as number | null,
    interlocks: [{ sensor_id: 5, block_below: 20 }],
    name: 'a',
  };

  it('lists the fields that changed, in the order given, with their values before and after', () => {
    const after = { ...before, condition_value: 6.2, max_doses_per_hour: 4 };
    expect(settingsChanges(before, after, ['max_doses_per_hour', 'condition_value', 'name'])).toEqual([
      { field: 'max_doses_per_hour', from: null, to: 4 },
      { field: 'condition_value', from: 6.5, to: 6.2 },
    ]);
  });

  it('compares objects by content, and takes absent as none', () => {
    const same = { ...before, interlocks: [{ sensor_id: 5, block_below: 20 }] };
    expect(settingsChanges(before, same, ['interlocks'])).toEqual([]);
    const moved = { ...before, interlocks: [{ sensor_id: 5, block_below: 25 }] };
    expect(settingsChanges(before, moved, ['interlocks'])).toHaveLength(1);
    expect(settingsChanges({ a: undefined as number | undefined }, { a: null as unknown as number | undefined }, ['a'])).toEqual([]);
    expect(settingsChanges({ a: undefined as number | undefined }, { a: 0 }, ['a'])).toEqual([{ field: 'a', from: null, to: 0 }]);
  });

  it('says the changes in a line', () => {
    expect(
      changesText([
        { field: 'condition_value', from: 6.5, to: 6.2 },
        { field: 'max_doses_per_hour', from: null, to: 4 },
        { field: 'interlocks', from: [], to: [{ sensor_id: 5 }] },
      ]),
    ).toBe('condition_value 6.5 → 6.2; max_doses_per_hour none → 4; interlocks [] → [{"sensor_id":5}]');
    expect(changesText([])).toBe('');
  });
});
