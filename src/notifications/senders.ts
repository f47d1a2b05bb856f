import nodemailer from 'nodemailer';
import type { Message } from './message.js';
import type { NotificationSettings } from '../config/notifications.js';

/** A channel ready to send: its plain settings and its opened secrets. */
export interface OpenChannel {
  channel_id: number;
  type: string;
  name: string;
  settings: Record<string, string>;
  secrets: Record<string, string>;
}

/** One message as it leaves: `id` is the same on every retry, so far ends that can drop repeats do. */
export interface Outgoing extends Message {
  id: string;
}

/** What the far end said: `status` its HTTP status or SMTP reply code (0: no answer). */
export interface SendResult {
  ok: boolean;
  status: number;
  detail: string;
}

const TIMEOUT_MS = 15_000;
const DETAIL_MAX = 500;

/** What the far end said, without any secret of the channel in it (an API may echo a token back). */
function scrub(detail: string, secrets: Record<string, string>): string {
  let out = detail;
  for (const value of Object.values(secrets)) if (value) out = out.split(value).join('***');
  return out.slice(0, DETAIL_MAX);
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' });
    // Enough of the answer to show what the far end said; never all of it.
    const text = (await response.text()).slice(0, DETAIL_MAX);
    return { ok: response.ok && !telegramRefused(text), status: response.status, detail: text };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    return {
      ok: false,
      status: 0,
      detail: e.name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS} ms` : String(e.cause?.code ?? e.message),
    };
  }
}

/** The Bot API answers `{"ok": false}` with a 4xx, but be sure: a 200 with ok false is a refusal too. */
function telegramRefused(text: string): boolean {
  return /^\s*\{\s*"ok"\s*:\s*false/.test(text);
}

const NTFY_PRIORITY = { critical: 5, warning: 4, info: 3 } as const;
const PUSHOVER_PRIORITY = { critical: 1, warning: 0, info: -1 } as const;

/** ntfy: a JSON publish to the server's root; the acknowledge link as an action button (a POST, one tap) and the tap target. */
function ntfy(channel: OpenChannel, m: Outgoing): Promise<SendResult> {
  const body = {
    topic: channel.settings.topic,
    title: m.title,
    message: m.text,
    priority: NTFY_PRIORITY[m.priority],
    tags: [m.priority === 'critical' ? 'rotating_light' : m.priority === 'warning' ? 'warning' : 'white_check_mark'],
    // A redelivered message replaces the first on the phone instead of ringing twice (ntfy's sequence id).
    sequence_id: m.id,
    ...(m.ack_url
      ? {
          click: m.ack_url,
          actions: [
            { action: 'http', label: 'Acknowledge', url: m.ack_url, method: 'POST', clear: true },
            { action: 'view', label: 'Open', url: m.ack_url },
          ],
        }
      : {}),
  };
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-sequence-id': m.id };
  if (channel.secrets.token) headers.authorization = `Bearer ${channel.secrets.token}`;
  return post(channel.settings.url.replace(/\/+$/, '') + '/', JSON.stringify(body), headers);
}

/** Telegram: sendMessage with the acknowledge link as an inline keyboard button. */
function telegram(channel: OpenChannel, m: Outgoing, settings: NotificationSettings): Promise<SendResult> {
  const body = {
    chat_id: channel.settings.chat_id,
    text: `${m.title}\n\n${m.text}`,
    disable_web_page_preview: true,
    disable_notification: m.priority === 'info',
    ...(m.ack_url ? { reply_markup: { inline_keyboard: [[{ text: 'Acknowledge', url: m.ack_url }]] } } : {}),
  };
  const url = `${settings.telegramApiUrl}/bot${channel.secrets.bot_token}/sendMessage`;
  return post(url, JSON.stringify(body), { 'content-type': 'application/json' });
}

/** Pushover: messages.json; the acknowledge link as the message's supplementary URL. */
function pushover(channel: OpenChannel, m: Outgoing, settings: NotificationSettings): Promise<SendResult> {
  const form = new URLSearchParams({
    token: channel.secrets.app_token,
    user: channel.secrets.user_key,
    title: m.title.slice(0, 250),
    message: m.text.slice(0, 1024),
    priority: String(PUSHOVER_PRIORITY[m.priority]),
  });
  if (m.ack_url) {
    form.set('url', m.ack_url);
    form.set('url_title', 'Acknowledge');
  }
  return post(`${settings.pushoverApiUrl}/1/messages.json`, form.toString(), { 'content-type': 'application/x-www-form-urlencoded' });
}

/** A webhook channel: the message as JSON, with the same idempotency key on every retry. */
function webhook(channel: OpenChannel, m: Outgoing): Promise<SendResult> {
  const body = { id: m.id, title: m.title, text: m.text, priority: m.priority, ack_url: m.ack_url };
  return post(channel.settings.url, JSON.stringify(body), { 'content-type': 'application/json', 'idempotency-key': m.id });
}

async function email(channel: OpenChannel, m: Outgoing, settings: NotificationSettings): Promise<SendResult> {
  if (!settings.smtpUrl) return { ok: false, status: 0, detail: 'SMTP_URL is not set' };
  const transport = nodemailer.createTransport({
    url: settings.smtpUrl,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  try {
    const lines = m.text;
    const info = await transport.sendMail({
      from: settings.smtpFrom,
      to: channel.settings.to,
      subject: m.title,
      // The same Message-ID on every retry: a mailbox that already holds it may drop the copy.
      messageId: `<${m.id}@sensorhub>`,
      priority: m.priority === 'critical' ? 'high' : 'normal',
      text: lines,
      html: m.ack_url ? htmlMail(m) : undefined,
    });
    const code = Number(/^(\d{3})/.exec(info.response ?? '')?.[1] ?? 250);
    return { ok: true, status: code, detail: String(info.response ?? '') };
  } catch (error) {
    const e = error as Error & { responseCode?: number; code?: string };
    return { ok: false, status: e.responseCode ?? 0, detail: e.responseCode ? e.message : String(e.code ?? e.message) };
  } finally {
    transport.close();
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function htmlMail(m: Outgoing): string {
  const body = m.text
    .split('\n')
    .filter((line) => !line.startsWith('Acknowledge: '))
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('');
  return `<!doctype html><html><body>${body}<p><a href="${escapeHtml(m.ack_url as string)}">Acknowledge</a></p></body></html>`;
}

/** Sends one message through one channel and says what the far end answered (secrets scrubbed). */
export async function sendThrough(channel: OpenChannel, m: Outgoing, settings: NotificationSettings): Promise<SendResult> {
  let result: SendResult;
  switch (channel.type) {
    case 'ntfy':
      result = await ntfy(channel, m);
      break;
    case 'telegram':
      result = await telegram(channel, m, settings);
      break;
    case 'pushover':
      result = await pushover(channel, m, settings);
      break;
    case 'webhook':
      result = await webhook(channel, m);
      break;
    case 'email':
      result = await email(channel, m, settings);
      break;
    default:
      result = { ok: false, status: 0, detail: `unknown channel type ${channel.type}` };
  }
  return { ...result, detail: scrub(result.detail, channel.secrets) };
}
