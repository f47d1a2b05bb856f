import { describe, expect, it } from 'vitest';
import { localDateTime, localDateTimeZoned, localizeInstants, zoneLabel, zoneOffset } from '../src/domain/local-time';

const AT = Date.parse('2025-11-24T20:01:00.000Z');

describe('zoneOffset', () => {
  it('writes the offset east or west of UTC, in hours and minutes', () => {
    expect(zoneOffset(AT, 60)).toBe('UTC+01:00');
    expect(zoneOffset(AT, 330)).toBe('UTC+05:30');
    expect(zoneOffset(AT, -300)).toBe('UTC−05:00');
    expect(zoneOffset(AT, -570)).toBe('UTC−09:30');
  });

  it('is plain UTC at no offset', () => {
    expect(zoneOffset(AT, 0)).toBe('UTC');
  });
});

describe('zoneLabel', () => {
  it('names the zone with its offset', () => {
    expect(zoneLabel(AT, 'Europe/Paris', 'UTC+01:00')).toBe('Europe/Paris, UTC+01:00');
  });

  it('says the offset alone where the name adds nothing', () => {
    expect(zoneLabel(AT, 'UTC', 'UTC')).toBe('UTC');
    expect(zoneLabel(AT, 'Etc/UTC', 'UTC')).toBe('UTC');
    expect(zoneLabel(AT, undefined, 'UTC+02:00')).toBe('UTC+02:00');
  });
});

describe('localizeInstants', () => {
  it("writes each instant of the service's sentence in local time", () => {
    const text = localizeInstants('Sensor possibly stuck: 7 unchanged since 2025-11-24T20:01:00.000Z');
    expect(text).toBe(`Sensor possibly stuck: 7 unchanged since ${localDateTimeZoned(AT)}`);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it('reads instants with an offset, without seconds, and several in one sentence', () => {
    const text = localizeInstants('from 2025-11-24T21:01+01:00 to 2025-11-24T20:02:30Z');
    expect(text).toBe(`from ${localDateTimeZoned(AT)} to ${localDateTimeZoned(AT + 90_000)}`);
  });

  it('leaves a sentence without an instant, and a date alone, as they are', () => {
    expect(localizeInstants('Activation period not elapsed')).toBe('Activation period not elapsed');
    expect(localizeInstants('calibrated on 2025-11-24')).toBe('calibrated on 2025-11-24');
  });
});

describe('localDateTime', () => {
  it('gives back what is not an instant rather than "Invalid Date"', () => {
    expect(localDateTime('soon')).toBe('soon');
    expect(localDateTime(AT)).not.toBe(String(AT));
  });
});
