/** The Server-Sent Events wire format (WHATWG HTML, "server-sent events"). */

/** One event; `data` is JSON text, which never holds a raw line break. */
export const sseEvent = (id: string, type: string, data: string) => `id: ${id}\nevent: ${type}\ndata: ${data}\n\n`;

/** A comment line: ignored by clients, but it keeps proxies and idle limits from closing the stream. */
export const sseComment = (text: string) => `: ${text}\n\n`;

/** How long a client waits before it reconnects after the stream ends. */
export const sseRetry = (ms: number) => `retry: ${ms}\n\n`;
