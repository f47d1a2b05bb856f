import { describe, expect, it } from 'vitest';
import { eventsUrl, REOPEN_FIRST_MS, REOPEN_MAX_MS, reopenDelay } from '../src/live';

describe('eventsUrl', () => {
  it('asks for the page’s event types and scope only', () => {
    expect(eventsUrl({ prototypeId: 0 }, ['measurements', 'actuator'], null)).toBe('/events?prototype_id=0&types=measurements%2Cactuator');
    expect(eventsUrl({ sensorIds: [1, 3] }, ['measurements'], null)).toBe('/events?sensor_id=1&sensor_id=3&types=measurements');
  });

  it('carries the token as access_token, since EventSource cannot send headers', () => {
    expect(eventsUrl({ prototypeId: 2 }, ['alert'], 'a.b.c')).toBe('/events?prototype_id=2&types=alert&access_token=a.b.c');
  });
});

describe('reopenDelay', () => {
  it('waits 3 s after the first refusal, doubling up to a minute', () => {
    expect(reopenDelay(1)).toBe(REOPEN_FIRST_MS);
    expect(reopenDelay(2)).toBe(2 * REOPEN_FIRST_MS);
    expect(reopenDelay(3)).toBe(4 * REOPEN_FIRST_MS);
    expect(reopenDelay(20)).toBe(REOPEN_MAX_MS);
  });
});
