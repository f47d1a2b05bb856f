import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnService } from '../helpers/process.js';
import { type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

/** One request on a connection of its own: the status, or the error code when there was no answer. */
function freshRequest(port: number, path: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ port, host: '127.0.0.1', path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

describe.each(storeKinds())('SIGTERM drain (%s)', { timeout: 120_000 }, (kind) => {
  let database: ScratchDatabase;
  beforeAll(async () => {
    database = await scratchDatabase(kind);
  });
  afterAll(() => database?.drop());

  it('answers new connections 503 (or refuses them) while a request in flight finishes', async () => {
    const service = await spawnService({ DATABASE_URL: database.url });
    // A request in flight: its body arrives in two parts, the second after SIGTERM.
    const body = JSON.stringify({ sensor_id: 1, value: 7.5 });
    const inFlight = connect(service.port, '127.0.0.1');
    let answer = '';
    inFlight.on('data', (chunk) => (answer += chunk.toString()));
    const answered = new Promise<void>((resolve) => inFlight.on('close', () => resolve()));
    inFlight.write(
      `POST /measurements HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));

    const exited = service.stop('SIGTERM');
    // From the moment the service says it is stopping.
    while (!service.output.some((line) => line.includes('shutting down'))) await new Promise((resolve) => setTimeout(resolve, 20));
    const outcomes: (number | string)[] = [];
    const started = performance.now();
    while (performance.now() - started < 1500) {
      outcomes.push(await freshRequest(service.port, '/prototypes'));
    }
    inFlight.write(body.slice(5));
    await answered;
    expect(await exited).toBe(0);

    expect(outcomes.length).toBeGreaterThan(0);
    const unexpected = outcomes.filter((o) => o !== 503 && o !== 'ECONNREFUSED');
    expect(unexpected).toEqual([]);
    expect(outcomes).toContain(503);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});
