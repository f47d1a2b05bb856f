import { describe, expect, it } from 'vitest';
import { streamPlaces } from '../../src/events/stream-places.js';

describe('streamPlaces', () => {
  it('refuses past the bound per client, then past the bound in all, and frees a place when a stream ends', () => {
    const places = streamPlaces({ maxStreams: 5, maxPerClient: 3 });
    for (let i = 0; i < 3; i++) {
      expect(places.refusal('a')).toBeUndefined();
      places.take('a');
    }
    expect(places.refusal('a')).toMatch(/for this client \(3 at most\)/);
    places.take('b');
    places.take('b');
    expect(places.refusal('c')).toMatch(/^Too many event streams open \(5 at most\)/);
    expect(places.refusal('b')).toMatch(/^Too many event streams open \(5 at most\)/);

    places.release('a');
    expect(places.refusal('c')).toBeUndefined();
    expect(places.refusal('a')).toBeUndefined();
    expect(places.total).toBe(4);

    for (const client of ['a', 'a', 'b', 'b']) places.release(client);
    expect(places.total).toBe(0);
    expect(places.clients).toBe(0);
  });

  it('refuses every stream when the bound in all is 0', () => {
    expect(streamPlaces({ maxStreams: 0, maxPerClient: 3 }).refusal('a')).toBeDefined();
  });
});
