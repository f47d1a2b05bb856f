import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { eventually } from './eventually.js';

/** One request a far end received. */
export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  body: any;
}

/**
 * A real HTTP server on loopback answering as ntfy, the Telegram Bot API and Pushover do (their
 * documented request and answer shapes), recording every request. `failing` makes it answer 500
 * (a far end that is down); ntfy's sequence id and the webhook's idempotency key are kept, so
 * `unique` counts what a phone would show.
 */
export async function farEnd(kind: 'ntfy' | 'telegram' | 'pushover' | 'webhook') {
  const received: Received[] = [];
  const state = { failing: false, botToken: '123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345678', appToken: 'a'.repeat(30) };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = raw;
      if ((req.headers['content-type'] ?? '').includes('json')) body = JSON.parse(raw);
      else if ((req.headers['content-type'] ?? '').includes('urlencoded')) body = Object.fromEntries(new URLSearchParams(raw));
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (state.failing) return json(500, { error: 'down for the test' });
      received.push({ path: req.url ?? '', headers: req.headers, raw, body });
      if (kind === 'ntfy') {
        return json(200, {
          id: randomUUID().slice(0, 12),
          time: Math.floor(Date.now() / 1000),
          event: 'message',
          topic: body.topic,
          message: body.message,
        });
      }
      if (kind === 'telegram') {
        if (req.url !== `/bot${state.botToken}/sendMessage`) return json(401, { ok: false, error_code: 401, description: 'Unauthorized' });
        return json(200, {
          ok: true,
          result: { message_id: received.length, chat: { id: Number(body.chat_id) }, date: 0, text: body.text },
        });
      }
      if (kind === 'pushover') {
        if (body.token !== state.appToken)
          return json(400, { token: 'invalid', errors: ['application token is invalid'], status: 0, request: randomUUID() });
        return json(200, { status: 1, request: randomUUID() });
      }
      return json(200, { ok: true });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    state,
    /** What a phone shows: repeats of one sequence id (ntfy) or idempotency key (webhook) count once. */
    unique(): Received[] {
      const seen = new Set<string>();
      return received.filter((r) => {
        const key = String(r.headers['x-sequence-id'] ?? r.headers['idempotency-key'] ?? randomUUID());
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    },
    waitFor: (count: number, timeoutMs = 10_000) =>
      eventually(() => received.length >= count && received, `${count} requests at ${kind}`, timeoutMs),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A real SMTP server (smtp-server) on loopback that parses every mail it receives (mailparser). */
export async function smtpReceiver() {
  const mails: ParsedMail[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(`${auth.username}:${auth.password}`);
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    logins,
    waitFor: (count: number, timeoutMs = 10_000) => eventually(() => mails.length >= count && mails, `${count} mails`, timeoutMs),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
