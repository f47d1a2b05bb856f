import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { dbOf } from '../helpers/stores.js';

/** A client that trickles a request one byte at a time and records what it got back, and what it had not sent yet when closed. */
function slowClient(port: number, head: string, request: string, everyMs: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  if (head) socket.write(head);
  let received = '';
  let sent = 0;
  const timer = setInterval(() => {
    if (sent < request.length && socket.writable) socket.write(request[sent++]);
  }, everyMs);
  socket.on('data', (chunk) => (received += chunk.toString()));
  const closed = new Promise<void>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      resolve();
    });
    socket.on('error', () => {});
  });
  return { closed, received: () => received, unsent: () => request.length - sent, destroy: () => socket.destroy() };
}

const HEADERS_MS = 1000;
const REQUEST_MS = 2000;

// The limits belong to the HTTP server, whatever the store: SQLite stands for both.
describe('slow clients', { timeout: 120_000 }, () => {
  let service: TestService;
  let port: number;
  beforeAll(async () => {
    service = await startService('sqlite', {
      env: { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS), HTTP_MAX_CONNECTIONS: '1000' },
    });
    port = Number(new URL(service.url).port);
  });
  afterAll(() => service?.close());

  it('are cut off at the header and request limits while ordinary requests keep answering', async () => {
    const slowHeaders = Array.from({ length: 150 }, () =>
      slowClient(port, '', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(100), 200),
    );
    const body = JSON.stringify({ sensor_id: 1, value: 1 });
    const slowBodies = Array.from({ length: 150 }, () => {
      const head = `POST /measurements HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 100}\r\n\r\n`;
      return slowClient(port, head, body + ' '.repeat(100), 200);
    });
    // Meanwhile the service answers as usual.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await service.get('/healthz')).status);
      statuses.push((await service.post('/measurements', { sensor_id: 1, value: 2 })).status);
    }
    expect(statuses).toEqual(Array.from({ length: 5 }, () => [200, 200]).flat());

    // Every slow client is closed by the service, long before it would have finished sending.
    await Promise.all([...slowHeaders, ...slowBodies].map((c) => c.closed));
    for (const client of [...slowHeaders, ...slowBodies]) {
      expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(client.unsent()).toBeGreaterThan(0);
    }
    // None of the trickled measurements was stored: only the ordinary ones.
    const stored = await dbOf(service.store).selectFrom('measurements').select('value').where('sensor_id', '=', 1).execute();
    expect(stored.every((row) => row.value === 2)).toBe(true);
  });
});

describe('the connection cap', { timeout: 120_000 }, () => {
  let service: TestService;
  let port: number;
  beforeAll(async () => {
    service = await startService('sqlite', {
      env: { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS), HTTP_MAX_CONNECTIONS: '20' },
    });
    port = Number(new URL(service.url).port);
  });
  afterAll(() => service?.close());

  it('closes connections beyond it at once, and serves again once the slow ones are cut off', async () => {
    const slow = Array.from({ length: 20 }, () =>
      slowClient(port, '', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(100), 200),
    );
    // Give the server the moment it needs to accept them all.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const beyond = slowClient(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', '', 1000);
    await beyond.closed;
    expect(beyond.received()).toBe('');

    await Promise.all(slow.map((c) => c.closed));
    expect((await service.get('/healthz')).status).toBe(200);
  });
});

describe('a long response', { timeout: 120_000 }, () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService('sqlite', { env: { HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '500' } });
  });
  afterAll(() => service?.close());

  it('is not cut at the request limit: an export read slowly arrives whole', async () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ sensor_id: 1, value: i, timestamp: Date.UTC(2026, 0, 1) + i * 1000 }));
    for (let i = 0; i < rows.length; i += 10_000) await service.store.ingest(rows.slice(i, i + 10_000));
    const response = await fetch(`${service.url}/measurements/export?sensor_id=1`);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let text = '';
    const decoder = new TextDecoder();
    let paused = false;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      // After the first bytes, stop reading for more than twice the request limit.
      if (!paused) await new Promise((resolve) => setTimeout(resolve, 1200));
      paused = true;
    }
    expect(text.trim().split('\n')).toHaveLength(rows.length + 1);
  });
});
