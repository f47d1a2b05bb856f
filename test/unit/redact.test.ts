import { describe, expect, it } from 'vitest';
import { withoutToken } from '../../src/http/redact.js';

describe('withoutToken', () => {
  it('replaces the value of every parameter whose name decodes to access_token, in any case', () => {
    const cases: [string, string][] = [
      ['/events?access_token=abc.def', '/events?access_token=[redacted]'],
      ['/events?types=sensor&access%5Ftoken=abc&sensor_id=1', '/events?types=sensor&access%5Ftoken=[redacted]&sensor_id=1'],
      ['/events?%61%63cess_token=a=b=c', '/events?%61%63cess_token=[redacted]'],
      ['/events?Access_Token=abc&access_token=def', '/events?Access_Token=[redacted]&access_token=[redacted]'],
      ['/events#access_token=abc', '/events#access_token=[redacted]'],
      ['/events?x=1#&access%5ftoken=abc', '/events?x=1#&access%5ftoken=[redacted]'],
      ['/events?access_token', '/events?access_token=[redacted]'],
      ['http://host/events?access%5Ftoken=abc', 'http://host/events?access%5Ftoken=[redacted]'],
    ];
    for (const [url, logged] of cases) expect(withoutToken(url), url).toBe(logged);
  });

  it('redacts the token of an acknowledge link, with or without a query', () => {
    expect(withoutToken('/notifications/ack/eyJhbGciOi.abc.def')).toBe('/notifications/ack/[redacted]');
    expect(withoutToken('/notifications/ack/abc.def?x=1')).toBe('/notifications/ack/[redacted]?x=1');
    expect(withoutToken('/notifications/ack/abc?access_token=t')).toBe('/notifications/ack/[redacted]?access_token=[redacted]');
    expect(withoutToken('/notifications/channels/3')).toBe('/notifications/channels/3');
  });

  it('leaves every other URL as it is, malformed escapes included', () => {
    for (const url of [
      '/measurements/1/last',
      '/events?types=sensor&sensor_id=2',
      '/events?access%5Ftoken%ZZ=abc',
      '/events?access+token=abc',
      '/events?access_tokens=abc',
      '/sensors/%41?x=%',
      '/access_token/1',
    ]) {
      expect(withoutToken(url), url).toBe(url);
    }
  });
});
