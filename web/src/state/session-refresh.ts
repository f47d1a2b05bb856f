import { useEffect } from 'preact/hooks';
import { api } from '../api/endpoints';
import { ApiError } from '../api/errors';
import { expiresAtMs, refreshDelayMs } from '../domain/session-token';
import { storedTokenReceivedAt, storeToken } from './session';

/** After a refresh that failed for want of an answer (a restart, the network): the next try, while the token lasts. */
export const REFRESH_RETRY_MS = 30_000;
/** The longest a browser timer waits (2³¹−1 ms, about 24 days); a longer wait is taken in several. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Keeps a password session signed in (docs/api.md §6.1): shortly before the token expires it is
 * exchanged for a fresh one (`POST /token/refresh`), so an open dashboard on a wall tablet stays
 * signed in up to SESSION_MAX_DAYS after the password. A refusal (401: logged out elsewhere, a new
 * password, the longest session reached) goes back to the login page through the client's 401
 * handler; a failure to answer is tried again until the token expires.
 */
export function useSessionRefresh(token: string | null, onRefreshed: (token: string) => void): void {
  useEffect(() => {
    if (!token) return;
    const receivedAt = storedTokenReceivedAt();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const wait = (ms: number, then: () => void) => {
      timer = setTimeout(then, Math.min(ms, LONGEST_TIMER_MS));
    };
    const whenDue = () => {
      const delay = refreshDelayMs(token, receivedAt, Date.now());
      if (delay === null) return;
      if (delay > 0) wait(delay, whenDue);
      else void refresh();
    };
    const refresh = async () => {
      try {
        const reply = await api.refreshToken();
        if (stopped) return;
        storeToken(reply.access_token);
        onRefreshed(reply.access_token);
      } catch (error) {
        if (stopped || (error instanceof ApiError && error.status === 401)) return;
        const left = (expiresAtMs(token, receivedAt) ?? 0) - Date.now();
        if (left > 0) wait(Math.min(REFRESH_RETRY_MS, left / 2), () => void refresh());
      }
    };

    whenDue();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [token]);
}
