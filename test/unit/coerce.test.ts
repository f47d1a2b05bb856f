import { describe, expect, it } from 'vitest';
import { coerceNumericStrings } from '../../src/http/coerce.js';

const measurement = {
  type: 'object',
  properties: { sensor_id: { type: 'integer' }, value: { type: 'number' }, note: { type: 'string' } },
};

describe('coerceNumericStrings', () => {
  it('converts numeric strings where the schema wants numbers', () => {
    expect(coerceNumericStrings(measurement, { sensor_id: '2', value: '6.4', note: '7' })).toEqual({ sensor_id: 2, value: 6.4, note: '7' });
    expect(coerceNumericStrings(measurement, { sensor_id: ' 12 ', value: '-1e3' })).toEqual({ sensor_id: 12, value: -1000 });
  });

  it('leaves everything else for the validator to reject', () => {
    const data = { sensor_id: 'two', value: null, note: 5 };
    expect(coerceNumericStrings(measurement, data)).toEqual({ sensor_id: 'two', value: null, note: 5 });
    expect(coerceNumericStrings(measurement, { sensor_id: '1.5', value: true })).toEqual({ sensor_id: '1.5', value: true });
    expect(coerceNumericStrings(measurement, { sensor_id: '', value: '' })).toEqual({ sensor_id: '', value: '' });
    expect(coerceNumericStrings(measurement, { value: '0x10' })).toEqual({ value: '0x10' });
    expect(coerceNumericStrings(measurement, { sensor_id: '99999999999999999999', value: '1e999' })).toEqual({ sensor_id: '99999999999999999999', value: '1e999' });
  });

  it('walks arrays and unions', () => {
    const union = { anyOf: [measurement, { type: 'array', items: measurement }] };
    expect(coerceNumericStrings(union, [{ sensor_id: '1' }, { sensor_id: '3' }])).toEqual([{ sensor_id: 1 }, { sensor_id: 3 }]);
    expect(coerceNumericStrings(union, { sensor_id: '4' })).toEqual({ sensor_id: 4 });
  });

  it('converts text booleans and wraps single values into arrays only for the query string and path', () => {
    const query = { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } }, flag: { type: 'boolean' } } };
    expect(coerceNumericStrings(query, { ids: '5', flag: 'true' }, 'query')).toEqual({ ids: [5], flag: true });
    expect(coerceNumericStrings(query, { ids: ['5', '6'] }, 'query')).toEqual({ ids: [5, 6] });
    expect(coerceNumericStrings(query, { ids: '5', flag: 'true' }, 'json')).toEqual({ ids: '5', flag: 'true' });
  });
});
