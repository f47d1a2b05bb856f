import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type HotReadOptions, hotReads } from '../../src/http/hot-reads.js';
import type { Activation } from '../../src/domain/activation.js';
import { activationJson } from '../../src/core/json-text.js';
import type { PolledReads } from '../../src/store/index.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const MEASUREMENT = { measurement_id: 7, sensor_id: 3, value: 4.5, timestamp: NOW - 1000 };
/** The decision the service answers for actuator 2 (the route's and this path's). */
const STATE: Activation = { activate: true, status: 'OK', reason: 'ok', duration: 4, period: 60 };
/** The service hands the decision over with its JSON text. */
const STATE_ANSWER = { json: activationJson(STATE) };

/** What the fast path reads: the polled measurement, and the service's decision. */
type Reads = Pick<HotReadOptions, 'actuatorState'> & { lastMeasurement: PolledReads['lastMeasurement'] };

/** What the handler recorded for metrics: the seconds of each answer, per route. */
const observed = { last: [] as number[], state: [] as number[] };
const observe = { last: (s: number) => observed.last.push(s), state: (s: number) => observed.state.push(s) };

/** The handler on a real port; requests it does not answer reach `next`, which answers 599. */
async function serve(polled: Reads, active = () => true): Promise<{ url: string; server: Server }> {
  const hot = hotReads({ polled, actuatorState: polled.actuatorState, exposedHeaders: ['Content-Disposition'], active, observe });
  const server = createServer((req, res) =>
    hot(req, res, (_req, fallback) => {
      fallback.writeHead(599).end('route');
    }),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const fromMemory: Reads = {
  lastMeasurement: (id) => (id === 3 ? MEASUREMENT : undefined),
  actuatorState: (id) => (id === 2 ? STATE_ANSWER : undefined),
};
const fromPromises: Reads = {
  lastMeasurement: async (id) => fromMemory.lastMeasurement(id),
  actuatorState: async (id) => fromMemory.actuatorState(id),
};

describe('hot reads in front of the request pipeline', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it.each([
    ['in memory', fromMemory],
    ['behind promises', fromPromises],
  ])('answers the plain polls itself, with the route headers (%s)', async (_name, polled) => {
    const running = await serve(polled);
    server = running.server;
    const last = await fetch(`${running.url}/measurements/3/last`);
    expect(last.status).toBe(200);
    expect(await last.json()).toEqual({ measurement_id: 7, sensor_id: 3, value: 4.5, timestamp: new Date(NOW - 1000).toISOString() });
    expect(last.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(last.headers.get('access-control-allow-origin')).toBe('*');
    expect(last.headers.get('cache-control')).toBeNull();

    const state = await fetch(`${running.url}/actuators/2/state/`);
    expect(state.status).toBe(200);
    expect(await state.json()).toEqual({ activate: true, status: 'OK', reason: 'ok', duration: 4, period: 60 });
    expect(state.headers.get('cache-control')).toBe('no-store');
  });

  it('records each answer it gives for metrics, and none of those it leaves to the route', async () => {
    const running = await serve(fromMemory);
    server = running.server;
    observed.last.length = 0;
    observed.state.length = 0;
    await fetch(`${running.url}/measurements/3/last`);
    await fetch(`${running.url}/measurements/3/last`);
    await fetch(`${running.url}/actuators/2/state`);
    await fetch(`${running.url}/measurements/4/last`);
    await fetch(`${running.url}/actuators/9/state`);
    expect(observed.last).toHaveLength(2);
    expect(observed.state).toHaveLength(1);
    for (const seconds of [...observed.last, ...observed.state]) expect(seconds).toBeGreaterThanOrEqual(0);
  });

  it('leaves everything else to the route', async () => {
    const running = await serve(fromMemory);
    server = running.server;
    const status = async (path: string, init?: RequestInit) => (await fetch(running.url + path, init)).status;
    expect(await status('/measurements/4/last')).toBe(599); // no measurement: the route says why
    expect(await status('/actuators/9/state')).toBe(599); // no such actuator
    expect(await status('/measurements/2147483648/last')).toBe(599); // out of range: a 422 from the route
    expect(await status('/measurements/3/last?x=1')).toBe(599);
    expect(await status('/measurements/-3/last')).toBe(599);
    expect(await status('/measurements/3/last', { method: 'HEAD' })).toBe(599);
    expect(await status('/measurements/3/last', { method: 'DELETE' })).toBe(599);
    expect(await status('/measurements/3')).toBe(599);
    expect(await status('/actuators/2/state/extra')).toBe(599);
  });

  it('leaves a store error to the route, whether thrown or rejected', async () => {
    for (const polled of [
      {
        lastMeasurement: () => {
          throw new Error('busy');
        },
        actuatorState: () => {
          throw new Error('busy');
        },
      },
      { lastMeasurement: () => Promise.reject(new Error('busy')), actuatorState: () => Promise.reject(new Error('busy')) },
    ] as Reads[]) {
      const running = await serve(polled);
      expect((await fetch(`${running.url}/measurements/3/last`)).status).toBe(599);
      expect((await fetch(`${running.url}/actuators/2/state`)).status).toBe(599);
      running.server.close();
    }
  });

  it('answers nothing while inactive (draining)', async () => {
    let active = true;
    const running = await serve(fromMemory, () => active);
    server = running.server;
    expect((await fetch(`${running.url}/measurements/3/last`)).status).toBe(200);
    active = false;
    expect((await fetch(`${running.url}/measurements/3/last`)).status).toBe(599);
  });
});
