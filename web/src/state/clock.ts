import { useEffect, useState } from 'preact/hooks';

/**
 * The time, advanced every `everyMs` so that "3 min ago" and staleness follow the clock between
 * events. It only re-renders: data comes from the event stream, never from this timer.
 */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
