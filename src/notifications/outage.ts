import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';
import type { SettingRepository } from '../store/index.js';
import { durationWords } from './message.js';

const HEARTBEAT_KEY = 'notifications_heartbeat';
/** How often the service notes that it is alive: the outage's length is known to within this. */
export const HEARTBEAT_MS = 30_000;

interface Heartbeat {
  at: number;
  clean: boolean;
}

/** The notice after an unclean stop, or undefined after a clean one (or the first start). */
export function outageNotice(last: Heartbeat | undefined, now: number): { title: string; text: string } | undefined {
  if (!last || last.clean) return undefined;
  const down = Math.max(0, now - last.at);
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  return {
    title: `sensorhub is back after being down about ${durationWords(down)}`,
    text:
      `sensorhub stopped without shutting down (a power cut or a crash) after ${iso(last.at)} and started again at ${iso(now)}: ` +
      `about ${durationWords(down)} without watching the tanks or running the pumps. ` +
      'Check the tanks and the pumps; alerts still active are told again.',
  };
}

/**
 * Notes every HEARTBEAT_MS that the service runs, and at a clean stop that it stopped cleanly.
 * At start, a note that was never marked clean means the last run ended unclean: `notice` gets
 * the words for the channels.
 */
export function outageWatch(settings: SettingRepository, now: () => number, timers: Timers, log: Logger) {
  let timer: unknown;
  let stopped = false;
  const write = (clean: boolean) => settings.set(HEARTBEAT_KEY, JSON.stringify({ at: now(), clean } satisfies Heartbeat));
  const beat = () => {
    timer = timers.set(() => {
      void write(false)
        .catch((error: unknown) => log.warn({ err: error }, 'could not note that the service is alive'))
        .finally(() => {
          if (!stopped) beat();
        });
    }, HEARTBEAT_MS);
  };
  return {
    async start(notice: (title: string, text: string) => Promise<void>): Promise<void> {
      const raw = await settings.get(HEARTBEAT_KEY);
      let last: Heartbeat | undefined;
      try {
        last = raw === undefined ? undefined : (JSON.parse(raw) as Heartbeat);
      } catch {
        last = undefined;
      }
      const told = outageNotice(last, now());
      await write(false);
      if (told) {
        log.warn({ downSince: last?.at }, told.title);
        await notice(told.title, told.text);
      }
      beat();
    },
    /**
     * Never throws: a store that is gone or not answering must not stop the service from closing
     * (and from closing the store after it). The next start then reports an outage, which errs safe.
     */
    async stop(): Promise<void> {
      stopped = true;
      timers.clear(timer);
      await write(true).catch((error: unknown) =>
        log.warn({ err: error }, 'could not note the clean stop; the next start will report an outage'),
      );
    },
  };
}
