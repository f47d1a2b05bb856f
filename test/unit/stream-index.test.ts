import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../src/events/filter.js';
import { streamIndex } from '../../src/events/stream-index.js';

const types = new Set(['measurements'] as const);
const stream = (name: string, place: Partial<Subscription>) => ({ name, subscription: { types, ...place } });
const names = (found: Iterable<{ name: string }>) => [...found].map((s) => s.name).sort();

describe('the index of open streams by place', () => {
  const bySensors = stream('sensors 1 and 2', { sensorIds: new Set([1, 2]) });
  const byPrototype = stream('prototype 7', { prototypeId: 7 });
  const anywhere = stream('anywhere', {});

  it("finds the streams of an event's sensors and prototypes, and the unfiltered ones, each once", () => {
    const index = streamIndex<ReturnType<typeof stream>>();
    for (const s of [bySensors, byPrototype, anywhere]) index.add(s);
    expect(names(index.candidates({ sensorIds: [1, 2], prototypeIds: [7] }))).toEqual(['anywhere', 'prototype 7', 'sensors 1 and 2']);
    expect(names(index.candidates({ sensorIds: [2], prototypeIds: [3] }))).toEqual(['anywhere', 'sensors 1 and 2']);
    expect(names(index.candidates({ sensorIds: [9], prototypeIds: [] }))).toEqual(['anywhere']);
  });

  it('forgets a stream that is deleted, under every key it had', () => {
    const index = streamIndex<ReturnType<typeof stream>>();
    for (const s of [bySensors, byPrototype, anywhere]) index.add(s);
    index.delete(bySensors);
    index.delete(anywhere);
    expect(names(index.candidates({ sensorIds: [1, 2], prototypeIds: [7] }))).toEqual(['prototype 7']);
    index.delete(byPrototype);
    expect(names(index.candidates({ sensorIds: [1, 2], prototypeIds: [7] }))).toEqual([]);
  });
});
