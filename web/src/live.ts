import { useEffect, useRef } from 'preact/hooks';

/**
 * How the pages learn that data changed. For now it polls every few seconds; when the service
 * has its event stream (`GET /events`), this module alone changes to an EventSource and calls the
 * same callback on each event. Pages never poll on their own.
 */
export const POLL_INTERVAL_MS = 5000;

export interface LiveSubscription {
  stop(): void;
}

/** Calls `onChange` whenever the watched data may have changed, until stopped. */
export function subscribe(onChange: () => void | Promise<void>, intervalMs = POLL_INTERVAL_MS): LiveSubscription {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  // A timeout chain rather than setInterval: a slow refresh never overlaps the next one.
  const tick = async () => {
    if (stopped) return;
    if (document.visibilityState !== 'hidden') await onChange();
    if (!stopped) timer = setTimeout(tick, intervalMs);
  };
  timer = setTimeout(tick, intervalMs);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** `subscribe` for a component: the latest callback is called, and the subscription ends on unmount. */
export function useLive(onChange: () => void | Promise<void>, key: unknown): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    const subscription = subscribe(() => latest.current());
    return () => subscription.stop();
  }, [key]);
}
