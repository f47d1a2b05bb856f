import { type AddressInfo, createServer, type Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL (or another server, such as the broker) that a test controls:
 * `cut` stands for the database going away (connections closed, new ones refused), `silence` for
 * one that stops answering (connections stay open, new ones are accepted, nothing comes back),
 * `muteClients` for a server that no longer hears its clients while they still hear it.
 */
export function databaseProxy(target: URL) {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  let port = 0;
  let silent = false;
  let clientsMuted = false;
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = new Socket();
        sockets.add(client);
        sockets.add(upstream);
        upstream.connect(Number(target.port || 5432), target.hostname);
        // Bytes are forwarded one chunk at a time, so that a silenced proxy can swallow them.
        client.on('data', (chunk) => {
          if (!silent && !clientsMuted) upstream.write(chunk);
        });
        upstream.on('data', (chunk) => {
          if (!silent) client.write(chunk);
        });
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  return {
    open,
    get port() {
      return port;
    },
    /** The URL of `databaseUrl` with its host and port replaced by the proxy's. */
    via(databaseUrl: string): string {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    async cut() {
      await new Promise<void>((resolve) => {
        server?.close(() => resolve());
        for (const s of sockets) s.destroy();
        sockets.clear();
      });
    },
    /** From now on what clients send is swallowed; what the server sends still reaches them. */
    muteClients() {
      clientsMuted = true;
    },
    /** From now on nothing is forwarded either way, and no connection is closed. */
    silence() {
      silent = true;
    },
    /** Drops every connection (their streams lost bytes while silent) and forwards again. */
    speak() {
      silent = false;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
  };
}
