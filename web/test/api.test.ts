import { describe, expect, it } from 'vitest';
import { queryString } from '../src/api/client';
import { ApiError, fieldErrors, fieldOf } from '../src/api/errors';
import type { RemovalRefused } from '../src/api/types';
import { dependentsOf } from '../src/domain/dependents';
import { parseNumbers } from '../src/domain/numbers';
import { tokenPermissions } from '../src/domain/session-token';
import { timeSince } from '../src/domain/time';

describe('fieldOf', () => {
  it('names the field of a body or bulk-body location', () => {
    expect(fieldOf({ loc: ['body', 'activation_period'], msg: 'm', type: 't' })).toBe('activation_period');
    expect(fieldOf({ loc: ['body', 0, 'threshold_low'], msg: 'm', type: 't' })).toBe('threshold_low');
    expect(fieldOf({ loc: ['query', 'start_time'], msg: 'm', type: 't' })).toBe('start_time');
  });

  it('puts an order violation of the thresholds with the thresholds, and the rest with the form', () => {
    expect(fieldOf({ loc: ['body', 0], msg: 'm', type: 'thresholds_order' })).toBe('thresholds');
    expect(fieldOf({ loc: ['body'], msg: 'm', type: 'missing' })).toBe('_form');
  });
});

describe('fieldErrors', () => {
  it('joins the messages of one field and keeps a plain detail for the form', () => {
    const issues = [
      { loc: ['body', 0, 'activation_period'], msg: 'must be >= 0', type: 'minimum' },
      { loc: ['body', 0, 'activation_period'], msg: 'must be a number', type: 'type' },
      { loc: ['body', 0, 'sensor_id'], msg: 'must be an integer', type: 'type' },
    ];
    expect(fieldErrors(new ApiError(422, issues))).toEqual({
      activation_period: 'must be >= 0; must be a number',
      sensor_id: 'must be an integer',
    });
    expect(fieldErrors(new ApiError(404, 'Sensor 9 not found'))).toEqual({ _form: 'Sensor 9 not found' });
  });
});

describe('queryString', () => {
  it('repeats array keys and leaves out undefined', () => {
    expect(queryString({ sensor_id: [1, 2], prototype_id: 0, start_time: undefined })).toBe('?sensor_id=1&sensor_id=2&prototype_id=0');
    expect(queryString({})).toBe('');
  });
});

describe('parseNumbers', () => {
  it('reads decimal commas and reports what is not a number', () => {
    expect(parseNumbers({ a: '2,5', b: ' 3 ', c: '', d: 'ten' })).toEqual({
      values: { a: 2.5, b: 3 },
      errors: { c: 'Enter a number', d: 'Enter a number' },
    });
  });
});

describe('tokenPermissions', () => {
  const token = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;
  it('reads the permissions claim, and 0 from anything else', () => {
    expect(tokenPermissions(token({ sub: 'grower', permissions: 6 }))).toBe(6);
    expect(tokenPermissions(token({ sub: 'grower' }))).toBe(0);
    expect(tokenPermissions('not-a-token')).toBe(0);
    expect(tokenPermissions('a.@@@.b')).toBe(0);
  });
});

describe('timeSince', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('says the age in the largest sensible unit', () => {
    expect(timeSince('2026-11-23T11:59:48Z', now)).toBe('12 s ago');
    expect(timeSince('2026-11-23T11:57:00Z', now)).toBe('3 min ago');
    expect(timeSince('2026-11-23T07:00:00Z', now)).toBe('5 h ago');
    expect(timeSince('2026-11-20T12:00:00Z', now)).toBe('3 d ago');
  });
});

describe('dependentsOf', () => {
  const refusal = (detail: string, dependents?: RemovalRefused['dependents']) =>
    new ApiError(409, detail, dependents ? { detail, dependents } : { detail });

  it('reads the counts the service’s refusal carries, not its sentence', () => {
    const refused = refusal('Sensor 3 cannot go just now', { sensors: 0, actuators: 1, measurements: 1288, notes: 0 });
    expect(dependentsOf(refused)).toBe('1 actuator and 1,288 measurements');
  });

  it('keeps the detail of a 409 without counts', () => {
    expect(dependentsOf(refusal('Conflict'))).toBe('Conflict');
  });
});
