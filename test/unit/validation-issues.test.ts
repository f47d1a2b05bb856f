import { describe, expect, it } from 'vitest';
import { validationIssues } from '../../src/http/errors.js';
import { isDateTime, parseDateTime } from '../../src/domain/date-time.js';

describe('validationIssues', () => {
  it('turns Ajv errors into FastAPI-shaped entries with loc', () => {
    const issues = validationIssues(
      [
        { keyword: 'required', instancePath: '/2', params: { missingProperty: 'value' } },
        { keyword: 'type', instancePath: '/0/sensor_id', params: { type: 'integer' } },
        { keyword: 'enum', instancePath: '/sensor_type', params: { allowedValues: ['ph', 'ec'] } },
        { keyword: 'minimum', instancePath: '/prototype_id', params: { limit: 0 } },
      ],
      'body',
    );
    expect(issues).toEqual([
      { loc: ['body', 2, 'value'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 0, 'sensor_id'], msg: 'Input should be a valid integer', type: 'int_parsing' },
      { loc: ['body', 'sensor_type'], msg: "Input should be 'ph' or 'ec'", type: 'enum' },
      { loc: ['body', 'prototype_id'], msg: 'Input should be greater than or equal to 0', type: 'greater_than_equal' },
    ]);
  });

  it('names the query string and the path as FastAPI does', () => {
    expect(validationIssues([{ keyword: 'type', instancePath: '/id', params: { type: 'integer' } }], 'params')[0].loc).toEqual([
      'path',
      'id',
    ]);
    expect(validationIssues([{ keyword: 'type', instancePath: '/n', params: { type: 'integer' } }], 'querystring')[0].loc).toEqual([
      'query',
      'n',
    ]);
  });

  it("drops a nullable field's 'should be null' when the value's own branch says what is wrong", () => {
    const issues = validationIssues(
      [
        { keyword: 'maximum', instancePath: '/flow_ml_per_s', params: { limit: 1000000 } },
        { keyword: 'type', instancePath: '/flow_ml_per_s', params: { type: 'null' } },
        { keyword: 'anyOf', instancePath: '/flow_ml_per_s', params: {} },
      ],
      'body',
    );
    expect(issues).toEqual([
      { loc: ['body', 'flow_ml_per_s'], msg: 'Input should be less than or equal to 1000000', type: 'less_than_equal' },
    ]);
    // Alone at its place (no other branch spoke there), it is kept.
    expect(validationIssues([{ keyword: 'type', instancePath: '/x', params: { type: 'null' } }], 'body')).toEqual([
      { loc: ['body', 'x'], msg: 'Input should be null', type: 'none_required' },
    ]);
  });

  it('prefers the branch errors of a union over the union summary', () => {
    const issues = validationIssues(
      [
        { keyword: 'type', instancePath: '/value', params: { type: 'number' } },
        { keyword: 'anyOf', instancePath: '', params: {} },
      ],
      'body',
    );
    expect(issues).toHaveLength(1);
    expect(issues[0].loc).toEqual(['body', 'value']);
  });
});

describe('request date-times', () => {
  it('accepts any ISO 8601 offset and takes no offset as UTC', () => {
    expect(parseDateTime('2026-11-22T09:30:00.123Z')).toBe(Date.UTC(2026, 10, 22, 9, 30, 0, 123));
    expect(parseDateTime('2026-11-22T10:30:00+01:00')).toBe(Date.UTC(2026, 10, 22, 9, 30));
    expect(parseDateTime('2026-11-22T10:30:00+0100')).toBe(Date.UTC(2026, 10, 22, 9, 30));
    expect(parseDateTime('2026-11-22T09:30:00')).toBe(Date.UTC(2026, 10, 22, 9, 30));
    expect(parseDateTime('2026-11-22 09:30')).toBe(Date.UTC(2026, 10, 22, 9, 30));
    expect(parseDateTime('2026-11-22T09:30:00.123456Z')).toBe(Date.UTC(2026, 10, 22, 9, 30, 0, 123));
  });

  it('rejects what is not a date-time', () => {
    for (const text of ['yesterday', '2026-11-22', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-11-22T25:00:00Z', '1700000000']) {
      expect(isDateTime(text), text).toBe(false);
    }
  });
});
