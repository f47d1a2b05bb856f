import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAM_LIMITS } from '../../src/events/index.js';
import { startService, type TestService } from '../helpers/service.js';
import { openStream, type SseEvent } from '../helpers/sse.js';
import { storeKinds } from '../helpers/stores.js';

const data = (event: SseEvent) => JSON.parse(event.data);
const SENSOR = {
  sensor_type: 'ph',
  sensor_unit: 'pH',
  threshold_critically_low: 0,
  threshold_low: 5,
  threshold_high: 7,
  threshold_critically_high: 14,
};

describe.each(storeKinds())('resuming a stream that fell far behind (%s)', { timeout: 120_000 }, (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind);
  });
  afterAll(() => service?.close());

  it('gets a 200 stream with `reset` when the replay would pass the backlog bound, and then new events', async () => {
    await service.post('/prototypes', { prototype_id: 7, prototype_name: 'behind' });
    const { sensor_id } = (await service.post('/sensors/', { ...SENSOR, prototype_id: 7 })).body;
    const first = await openStream(`${service.url}/events?sensor_id=${sensor_id}&types=measurements`);
    expect((await service.post('/measurements', { sensor_id, value: 1 })).status).toBe(200);
    const seen = await first.next((e) => e.event === 'measurements');
    first.close();

    // 40 batches of 1,000 rows missed: over 3 MiB of replay, all still in the recent-events buffer.
    const batch = Array.from({ length: 1000 }, (_, i) => ({ sensor_id, value: i / 100 }));
    for (let i = 0; i < 40; i++) expect((await service.post('/measurements', batch)).status).toBe(200);

    const resumed = await openStream(`${service.url}/events?sensor_id=${sensor_id}&types=measurements`, { 'last-event-id': seen.id! });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reset = await resumed.next();
    expect(reset.event).toBe('reset');
    expect(data(reset).reason).toBeTruthy();
    expect(resumed.events.filter((e) => e.event === 'measurements')).toEqual([]);

    // The stream goes on: what is committed next arrives.
    const next = (await service.post('/measurements', { sensor_id, value: 6.5 })).body;
    expect(data(await resumed.next((e) => e.event === 'measurements'))).toEqual([next]);
    resumed.close();
  });

  it('still replays in full what fits within the bound', async () => {
    await service.post('/prototypes', { prototype_id: 8, prototype_name: 'near' });
    const { sensor_id } = (await service.post('/sensors/', { ...SENSOR, prototype_id: 8 })).body;
    const first = await openStream(`${service.url}/events?sensor_id=${sensor_id}`);
    await service.post('/measurements', { sensor_id, value: 1 });
    const seen = await first.next((e) => e.event === 'measurements');
    first.close();

    // About half the bound.
    const rows = Math.floor(DEFAULT_STREAM_LIMITS.maxBacklogBytes / 2 / 100);
    const batch = Array.from({ length: rows }, (_, i) => ({ sensor_id, value: i / 100 }));
    expect((await service.post('/measurements', batch)).status).toBe(200);
    const resumed = await openStream(`${service.url}/events?sensor_id=${sensor_id}`, { 'last-event-id': seen.id! });
    expect(resumed.status).toBe(200);
    const replayed = await resumed.next((e) => e.event === 'measurements');
    expect(data(replayed)).toHaveLength(rows);
    expect(resumed.events.some((e) => e.event === 'reset')).toBe(false);
    resumed.close();
  });
});
