import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect as tcpConnect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Broker {
  url: string;
  port: number;
  /** Stops the broker (its persistence is written, so a restart keeps sessions and retained messages). */
  stop(): Promise<void>;
  /** Starts it again on the same port and persistence. */
  start(): Promise<void>;
  /** Stops it and removes its files. */
  remove(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

async function listening(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`mosquitto did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface BrokerOptions {
  /**
   * The access settings, given the broker's own folder (to write a password file or an ACL in):
   * configuration lines in place of the default `allow_anonymous true`.
   */
  access?(dir: string): string[];
}

/**
 * A Mosquitto of one's own on a free port (never the shared one: a test may stop this one), with
 * persistence, and no limit on the messages it queues for a session (Mosquitto's default of 1000
 * would drop what a fast publisher sends ahead of a slower subscriber).
 */
export async function startBroker(options: BrokerOptions = {}): Promise<Broker> {
  const dir = mkdtempSync(join(tmpdir(), 'sensorhub-mosquitto-'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'mosquitto.conf'),
    [
      `listener ${port} 127.0.0.1`,
      ...(options.access?.(dir) ?? ['allow_anonymous true']),
      'persistence true',
      `persistence_location ${dir}/`,
      'max_queued_messages 0',
      'max_inflight_messages 100',
      'log_dest none',
    ].join('\n') + '\n',
  );
  let child: ChildProcess | undefined;
  const broker: Broker = {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
      await listening(port);
    },
    async stop() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
    async remove() {
      await broker.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await broker.start();
  return broker;
}
