import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Timers } from '../../src/core/timers.js';
import type { StoreKind } from '../../src/store/dialect.js';
import { manualServiceTimers } from './manual-timers.js';
import { startService, type StartOptions, type TestService } from './service.js';

/** A Server-Sent Events client for tests: the events of a real stream, read as they come. */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** Every event received so far, in order. */
  events: SseEvent[];
  /** Comment lines received so far. */
  comments: string[];
  /** The `retry:` advice, once received. */
  retry?: number;
  /** Resolves with the first event (from `from` on) that matches, or rejects after `timeoutMs`. */
  next(match?: (event: SseEvent) => boolean, options?: { timeoutMs?: number; from?: number }): Promise<SseEvent>;
  /** Resolves once a comment arrived. */
  nextComment(timeoutMs?: number): Promise<string>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Over a connection of its own (node:http, no pool): closing the stream closes exactly that connection. */
export async function openStream(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const request = get(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });
  request.on('error', () => {});
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const done of [...waiters]) done();
  };
  const stream: SseStream = {
    status: response.statusCode ?? 0,
    headers: responseHeaders,
    events,
    comments,
    ended: new Promise<void>((resolve) => {
      response.once('close', resolve);
      response.once('end', resolve);
    }).then(wake),
    async next(match = () => true, { timeoutMs = 10_000, from = 0 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.slice(from).find(match);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms; received: ${JSON.stringify(events).slice(0, 2000)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, left);
          function done() {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          }
          waiters.add(done);
        });
      }
    },
    async nextComment(timeoutMs = 10_000) {
      const seen = comments.length;
      const deadline = Date.now() + timeoutMs;
      while (comments.length === seen) {
        if (Date.now() > deadline) throw new Error('no comment arrived');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return comments[seen];
    },
    close: () => request.destroy(),
  };
  response.setEncoding('utf8');
  let buffer = '';
  response.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: SseEvent = { event: 'message', data: '' };
      let isEvent = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) comments.push(line.slice(1).trim());
        else if (line.startsWith('retry: ')) stream.retry = Number(line.slice(7));
        else if (line.startsWith('id: ')) event.id = line.slice(4);
        else if (line.startsWith('event: ')) event.event = line.slice(7);
        else if (line.startsWith('data: ')) {
          event.data += line.slice(6);
          isEvent = true;
        }
      }
      if (isEvent) events.push(event);
    }
    wake();
  });
  response.on('error', () => {});
  return stream;
}

/** A service for a suite about live behaviour, with its alarms in the test's hands and its streams. */
export interface LiveService {
  /** The service the suite started: reads through to it once `beforeAll` has run. */
  service: TestService;
  /** The service's alarms: nothing rings until the test moves the clock. */
  manual: ReturnType<typeof manualServiceTimers>;
  /** Every stream opened with `open`, closed after the suite. */
  streams: SseStream[];
  /** Opens `/events{query}` on the service. */
  open(query?: string, headers?: Record<string, string>): Promise<SseStream>;
}

/**
 * Registers the suite's hooks: starts the service (`options` given its manual alarms), sets its
 * clock to `now` before each test (unless `now` is undefined: then it follows the real clock),
 * and after the suite closes the streams opened and the service.
 */
export function liveService(kind: StoreKind, now: number | undefined, options: (timers: Timers) => StartOptions): LiveService {
  const manual = manualServiceTimers();
  const streams: SseStream[] = [];
  let started: TestService | undefined;
  const service = new Proxy({} as TestService, {
    get: (_target, key) => Reflect.get(started ?? {}, key),
  });
  beforeAll(async () => {
    started = await startService(kind, options(manual.timers));
    manual.follow(started);
  });
  beforeEach(() => {
    if (now !== undefined && started) started.clock.now = now;
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await started?.close();
  });
  return {
    service,
    manual,
    streams,
    async open(query = '', headers = {}) {
      const stream = await openStream(`${service.url}/events${query}`, headers);
      streams.push(stream);
      return stream;
    },
  };
}
