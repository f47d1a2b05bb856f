import { describe, expect, it } from 'vitest';
import { changeBus } from '../../src/core/bus.js';
import { eventFeed } from '../../src/events/feed.js';
import { recentEvents } from '../../src/events/recent-events.js';
import { idRanges, MAX_PAYLOAD_BYTES, packPayloads, parsePayload, recordsOf } from '../../src/events/relay-codec.js';

const NOW = Date.UTC(2026, 10, 22, 12);

describe('relay payloads', () => {
  it('carry a 10,000-measurement batch as one id range, and scattered ids in a few notifications under 8000 bytes', () => {
    const rows = (ids: number[]) => ids.map((measurement_id) => ({ measurement_id, sensor_id: 1, value: 0, timestamp: 0 }));
    const consecutive = packPayloads(
      'a1',
      recordsOf('measurements', { rows: rows(Array.from({ length: 10_000 }, (_, i) => 1_000_000 + i)) }),
    );
    expect(consecutive).toHaveLength(1);
    expect(parsePayload(consecutive[0])?.records).toEqual([
      { topic: 'measurements', sensorIds: [1], from: 0, to: 0, ranges: [[1_000_000, 1_009_999]] },
    ]);

    const scattered = Array.from({ length: 10_000 }, (_, i) => 2_000_000_000 + i * 2);
    const payloads = packPayloads('a1', recordsOf('measurements', { rows: rows(scattered) }));
    expect(payloads.length).toBeGreaterThan(1);
    expect(payloads.length).toBeLessThan(50);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const ranges = payloads.flatMap((p) => parsePayload(p)!.records.flatMap((r) => (r.topic === 'measurements' ? r.ranges : [])));
    expect(ranges.map(([first]) => first)).toEqual(scattered);
  });

  it('name the sensors of the rows and the span of their timestamps, many sensors in several records', () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => ({
      measurement_id: 10 + i,
      sensor_id: 1 + (i % 1_000),
      value: 0,
      timestamp: NOW + i,
    }));
    const records = recordsOf('measurements', { rows }).flatMap((r) => (r.topic === 'measurements' ? [r] : []));
    for (const payload of packPayloads('a1', records)) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    for (const row of rows) {
      const holding = records.filter(
        (r) => r.sensorIds.includes(row.sensor_id) && r.ranges.some(([a, b]) => a <= row.measurement_id && row.measurement_id <= b),
      );
      expect(holding).toHaveLength(1);
      expect(holding[0].from).toBeLessThanOrEqual(row.timestamp);
      expect(holding[0].to).toBeGreaterThanOrEqual(row.timestamp);
    }
  });

  it('keep the order of the changes and their origin', () => {
    const sensor = { action: 'deleted' as const, sensorId: 4 };
    const payloads = packPayloads('b2', [
      ...recordsOf('sensor', sensor),
      ...recordsOf('generated', { sensorIds: [1, 2], generated: 10, deleted: 0 }),
    ]);
    expect(parsePayload(payloads[0])).toEqual({
      origin: 'b2',
      records: [
        { topic: 'sensor', change: sensor },
        { topic: 'generated', change: { sensorIds: [1, 2], generated: 10, deleted: 0 } },
      ],
    });
    expect(parsePayload('not json')).toBeUndefined();
    expect(idRanges([5, 3, 4, 9])).toEqual([
      [3, 5],
      [9, 9],
    ]);
  });
});

describe('recent events', () => {
  const event = (seq: number) => ({ seq, size: 10 });
  it('gives what came after a known id, and nothing it cannot vouch for', () => {
    const recent = recentEvents<{ seq: number; size: number }>('x', { maxEvents: 3, maxBytes: 1000 });
    for (let i = 0; i < 5; i++) recent.keep(event(recent.next()));
    expect(recent.since('x-3')?.map((e) => e.seq)).toEqual([4, 5]);
    expect(recent.since('x-2')?.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(recent.since('x-5')).toEqual([]);
    // Event 2 itself is gone, but nothing after it is: resumable. Before that, no longer.
    expect(recent.since('x-1')).toBeUndefined();
    expect(recent.since('x-6')).toBeUndefined();
    expect(recent.since('y-4')).toBeUndefined();
    expect(recent.since('garbage')).toBeUndefined();
  });

  it('drops the oldest when the bytes pass the bound', () => {
    const recent = recentEvents<{ seq: number; size: number }>('x', { maxEvents: 100, maxBytes: 25 });
    for (let i = 0; i < 5; i++) recent.keep(event(recent.next()));
    expect(recent.since('x-3')?.map((e) => e.seq)).toEqual([4, 5]);
    expect(recent.since('x-2')).toBeUndefined();
  });
});

describe('event feed', () => {
  it('makes and keeps no event until a stream is wanted, then numbers and keeps them for resume', () => {
    const bus = changeBus();
    const delivered: number[] = [];
    let wanted = false;
    const feed = eventFeed({
      bus,
      sensors: [{ sensor_id: 1, prototype_id: 1 }],
      actuators: [],
      instance: 'i',
      recent: { maxEvents: 100, maxBytes: 1 << 20 },
      deliver: (event) => delivered.push(event.seq),
      wanted: () => wanted,
    });
    const row = (id: number) => ({ measurement_id: id, sensor_id: 1, value: 1, timestamp: NOW });
    bus.publish('measurements', { rows: [row(1)] });
    expect(delivered).toEqual([]);
    wanted = true;
    bus.publish('measurements', { rows: [row(2)] });
    bus.publish('measurements', { rows: [row(3)] });
    expect(delivered).toEqual([1, 2]);
    expect(feed.since('i-1')?.map((e) => e.seq)).toEqual([2]);
    feed.stop();
  });

  it('resumes with the missed events a stream subscribes to, or a `reset` when they are gone or pass the byte bound', () => {
    const bus = changeBus();
    const feed = eventFeed({
      bus,
      sensors: [
        { sensor_id: 1, prototype_id: 1 },
        { sensor_id: 2, prototype_id: 1 },
      ],
      actuators: [],
      instance: 'i',
      recent: { maxEvents: 100, maxBytes: 1 << 20 },
      deliver: () => {},
    });
    const rows = (sensor_id: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ measurement_id: i, sensor_id, value: 1, timestamp: NOW }));
    bus.publish('measurements', { rows: rows(1, 1) });
    bus.publish('measurements', { rows: rows(1, 10) });
    bus.publish('measurements', { rows: rows(2, 1000) });
    const mine = { types: new Set(['measurements'] as const), sensorIds: new Set([1]) };
    const everything = { types: new Set(['measurements'] as const) };
    const eventName = (text: string) => /^event: (\w+)$/m.exec(text)?.[1];
    const reason = (text: string) => JSON.parse(/^data: (.*)$/m.exec(text)![1]).reason;

    // Sensor 2's big batch is not this stream's: it does not count against the bound.
    const replay = feed.resume('i-1', mine, 2000);
    expect(replay.map(eventName)).toEqual(['measurements']);
    expect(replay[0]).toMatch(/^id: i-2$/m);

    const tooMuch = feed.resume('i-1', everything, 2000);
    expect(tooMuch.map(eventName)).toEqual(['reset']);
    expect(reason(tooMuch[0])).toBe('missed events are too many to replay');
    expect(feed.resume('i-1', everything, 1 << 20).map(eventName)).toEqual(['measurements', 'measurements']);

    expect(feed.resume('i-3', everything, 0)).toEqual([]);
    const gone = feed.resume('other-1', mine, 1 << 20);
    expect(gone.map(eventName)).toEqual(['reset']);
    expect(reason(gone[0])).toBe('missed events are no longer kept');
    feed.stop();
  });
});
