import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';

export interface Delivery {
  headers: IncomingMessage['headers'];
  body: any;
}

/** How the receiver answers one POST: by default 200 at once. */
export type Answer = (res: ServerResponse, delivery: Delivery) => void;

/** A real HTTP server on loopback that records every webhook POST it receives. */
export async function webhookReceiver(port = 0) {
  const received: Delivery[] = [];
  let answer: Answer = (res) => res.end('ok');
  const waiters = new Set<() => void>();
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const delivery = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      received.push(delivery);
      open.add(res);
      res.on('close', () => open.delete(res));
      answer(res, delivery);
      for (const wake of [...waiters]) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}/hook`,
    port: actualPort,
    received,
    answerWith(next: Answer): void {
      answer = next;
    },
    /** Resolves once `count` POSTs have arrived (fails the test after `timeoutMs`). */
    async waitFor(count: number, timeoutMs = 10_000): Promise<Delivery[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} webhook POSTs, got ${received.length}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
      return received;
    },
    async close(): Promise<void> {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof webhookReceiver>>;

/** A port nothing listens on (taken and released): a receiver that is down. */
export async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Answers with `status` and a body of `totalBytes`, made on the fly from one reused chunk and
 * written only as fast as the client reads (never held in memory). `written` counts what went out;
 * `ended` resolves once the connection is over (the client hung up, or all was written).
 */
export function streamedBody(res: ServerResponse, status: number, totalBytes: number) {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const progress = { written: 0, hungUp: false };
  const ended = new Promise<void>((resolve) => res.on('close', resolve));
  res.on('close', () => (progress.hungUp = !res.writableFinished));
  res.writeHead(status, { 'content-type': 'text/plain', 'content-length': String(totalBytes) });
  const pump = () => {
    while (!res.destroyed && progress.written < totalBytes) {
      const piece = chunk.subarray(0, Math.min(chunk.length, totalBytes - progress.written));
      progress.written += piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
  return { progress, ended };
}
