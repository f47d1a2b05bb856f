/**
 * The access token lives in sessionStorage: it is gone when the browser tab is closed, and other
 * tabs must log in for themselves. Beside it, when this tab received it (the browser's clock), from
 * which its refresh is timed (domain/session-token.ts).
 */
const KEY = 'sensorhub.token';
const RECEIVED_KEY = 'sensorhub.token.received';

type TokenListener = (token: string | null) => void;
const listeners = new Set<TokenListener>();

export function storedToken(): string | null {
  return sessionStorage.getItem(KEY);
}

/** When the stored token was received (ms, browser clock), or null when not known. */
export function storedTokenReceivedAt(): number | null {
  const at = Number(sessionStorage.getItem(RECEIVED_KEY));
  return Number.isFinite(at) && at > 0 ? at : null;
}

/** Keeps a token just received (or forgets it, with null), and tells whoever holds a connection made with the old one. */
export function storeToken(token: string | null): void {
  if (token === null) {
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(RECEIVED_KEY);
  } else {
    sessionStorage.setItem(KEY, token);
    sessionStorage.setItem(RECEIVED_KEY, String(Date.now()));
  }
  for (const listener of listeners) listener(token);
}

/** Told of every new or forgotten token (the event streams reopen with a refreshed one); returns the unsubscribe. */
export function onTokenChange(listener: TokenListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
