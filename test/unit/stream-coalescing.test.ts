import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/events/feed.js';
import { streamRegistry } from '../../src/events/streams.js';
import { manualTimers } from '../helpers/manual-timers.js';

/** A real stream over loopback whose server side records each write it makes. */
async function openStreams(
  count: number,
): Promise<{ server: Server; responses: ServerResponse[]; writes: string[][]; clients: IncomingMessage[] }> {
  const responses: ServerResponse[] = [];
  const writes: string[][] = [];
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    const mine: string[] = [];
    writes.push(mine);
    const write = res.write.bind(res);
    res.write = ((chunk: string) => {
      mine.push(chunk);
      return write(chunk);
    }) as typeof res.write;
    responses.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const clients: IncomingMessage[] = [];
  for (let i = 0; i < count; i++) {
    clients.push(await new Promise((resolve) => get({ port, host: '127.0.0.1', agent: false }, resolve)));
    while (responses.length <= i) await new Promise((resolve) => setImmediate(resolve));
  }
  return { server, responses, writes, clients };
}

const event = (seq: number, sensorId: number): LiveEvent => ({
  seq,
  size: 10,
  type: 'measurements',
  scope: { sensorIds: [sensorId], prototypeIds: [0] },
  textFor: () => `id: ${seq}\n\n`,
});

/** A registry whose clock and alarms, the coalescing window's included, the test moves itself. */
function registryOnManualTime(start: number) {
  const clock: { now: number | undefined } = { now: start };
  const manual = manualTimers(clock);
  const now = () => clock.now as number;
  const registry = streamRegistry(
    { maxBacklogBytes: 1 << 20, heartbeatMs: 60_000, coalesceMs: 15, maxStreams: 100, maxPerClient: 100 },
    { timers: manual.timers, now, window: { timers: manual.timers, now } },
  );
  return { clock, manual, registry };
}

describe('stream registry: coalescing', () => {
  let stop: () => void = () => {};
  afterEach(() => stop());

  it('writes an event after a quiet spell at once, and those that follow within the window together, in order', async () => {
    const { clock, manual, registry } = registryOnManualTime(1_000);
    const { server, responses, writes, clients } = await openStreams(2);
    stop = () => {
      registry.closeAll();
      for (const c of clients) c.destroy();
      server.close();
    };
    const types = new Set(['measurements'] as const);
    registry.open(responses[0], { types, sensorIds: new Set([1]) }, []);
    registry.open(responses[1], { types, sensorIds: new Set([2]) }, []);

    registry.deliver(event(1, 1));
    expect(writes[0]).toEqual(['id: 1\n\n']);
    clock.now = 1_005;
    registry.deliver(event(2, 1));
    clock.now = 1_010;
    registry.deliver(event(3, 2));
    registry.deliver(event(4, 1));
    // Within the window: nothing more written yet, one flush set for its end.
    expect(writes[0]).toEqual(['id: 1\n\n']);
    expect(writes[1]).toEqual([]);
    expect(manual.due()).toEqual([1_015]);
    manual.advanceTo(1_015);
    expect(writes[0]).toEqual(['id: 1\n\n', 'id: 2\n\nid: 4\n\n']);
    expect(writes[1]).toEqual(['id: 3\n\n']);
    // A quiet spell: the next goes at once again.
    clock.now = 1_100;
    registry.deliver(event(5, 2));
    expect(writes[1]).toEqual(['id: 3\n\n', 'id: 5\n\n']);
    expect(manual.due()).toEqual([]);
  });

  it('writes what waits before it ends the streams', async () => {
    const { manual, registry } = registryOnManualTime(0);
    const { server, responses, writes, clients } = await openStreams(1);
    stop = () => {
      for (const c of clients) c.destroy();
      server.close();
    };
    registry.open(responses[0], { types: new Set(['measurements']) }, []);
    registry.deliver(event(1, 1));
    registry.deliver(event(2, 1));
    registry.closeAll();
    expect(writes[0]).toEqual(['id: 1\n\n', 'id: 2\n\n']);
    expect(responses[0].writableEnded).toBe(true);
    expect(manual.due()).toEqual([]);
  });
});
