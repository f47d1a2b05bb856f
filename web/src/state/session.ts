/**
 * The access token lives in sessionStorage: it is gone when the browser tab is closed, and other
 * tabs must log in for themselves.
 */
const KEY = 'sensorhub.token';

export function storedToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function storeToken(token: string | null): void {
  if (token === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, token);
}
