import { useEffect, useRef } from 'preact/hooks';
import { queryString } from './api/client';
import type { Dose, NoteChange } from './api/records';
import type { Actuator, ActuatorState, Alert, AlertEvent, Measurement, Prototype, Sensor } from './api/types';
import { onTokenChange, storedToken } from './state/session';

/**
 * How the pages learn that data changed: the service's event stream (`GET /events`, docs/api.md §9),
 * one EventSource per page. Pages never poll.
 *
 * EventSource reconnects by itself after a dropped connection and resumes with Last-Event-ID (the
 * service replays what was missed, or sends `reset`). It gives up only when the service answers
 * with an error status (a revoked token, a deleted prototype, a restart behind a proxy that
 * answers 502): then the page reads its data again at once (which surfaces a refused token as a
 * 401), this module opens a new stream after a growing pause, and the page reads again when it
 * opens, since whatever happened meanwhile was not streamed. A refreshed token opens a new stream
 * at once (the service ends a stream when the token it was opened with expires), and the page
 * reads again when it opens.
 */
export type EventType = 'measurements' | 'actuator' | 'sensor' | 'prototype' | 'alert' | 'note' | 'dose';

export interface ActuatorChange {
  actuator: Actuator;
  state: ActuatorState;
}
export interface AlertChange {
  event: AlertEvent;
  alert: Alert;
}
type Deleted = { deleted: number };

export interface LiveHandlers {
  measurements?: (measurements: Measurement[]) => void;
  actuator?: (change: ActuatorChange | Deleted) => void;
  sensor?: (change: Sensor | Deleted) => void;
  prototype?: (change: Prototype | Deleted) => void;
  alert?: (change: AlertChange) => void;
  /** The grower's records (docs/api.md §15): a note written, changed or deleted; a dose recorded. */
  note?: (change: NoteChange) => void;
  dose?: (dose: Dose) => void;
  /** Reload what is shown: events were missed, or the data was replaced. */
  reset: () => void;
}

export interface LiveFilter {
  prototypeId?: number;
  sensorIds?: readonly number[];
}

export interface LiveSubscription {
  stop(): void;
}

/** Pauses before reopening a stream the service closed with an error: 3 s, doubling up to a minute. */
export const REOPEN_FIRST_MS = 3000;
export const REOPEN_MAX_MS = 60_000;

export function reopenDelay(failures: number): number {
  return Math.min(REOPEN_MAX_MS, REOPEN_FIRST_MS * 2 ** Math.max(0, failures - 1));
}

/** The stream's address: only the event types the page handles, and the token where the service enforces one. */
export function eventsUrl(filter: LiveFilter, types: readonly EventType[], token: string | null): string {
  return `/events${queryString({
    prototype_id: filter.prototypeId,
    sensor_id: filter.sensorIds,
    types: types.join(','),
    access_token: token ?? undefined,
  })}`;
}

const TYPES: readonly EventType[] = ['measurements', 'actuator', 'sensor', 'prototype', 'alert', 'note', 'dose'];

/** Calls the handlers for each event of the stream until stopped. */
export function subscribe(filter: LiveFilter, handlers: LiveHandlers): LiveSubscription {
  const types = TYPES.filter((type) => handlers[type]);
  let source: EventSource | null = null;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  /** Opened again for a new token: what happened in between was not streamed. */
  let reopened = false;

  const open = () => {
    const events = new EventSource(eventsUrl(filter, types, storedToken()));
    source = events;
    for (const type of types) {
      events.addEventListener(type, (message) => {
        // Typed per event by the service's schemas; the handler of that type takes it.
        (handlers[type] as (data: unknown) => void)(JSON.parse((message as MessageEvent<string>).data));
      });
    }
    events.addEventListener('reset', () => handlers.reset());
    events.addEventListener('open', () => {
      // A stream opened again after the service refused one: what changed meanwhile was not sent.
      if (failures > 0 || reopened) handlers.reset();
      failures = 0;
      reopened = false;
    });
    events.addEventListener('error', () => {
      if (events.readyState !== EventSource.CLOSED || stopped) return;
      failures++;
      // The first refusal reads the page again: a token no longer accepted shows there as a 401,
      // which returns to the login form; a service that is down shows its error.
      if (failures === 1) handlers.reset();
      timer = setTimeout(open, reopenDelay(failures));
    });
  };
  open();
  const unlisten = onTokenChange((token) => {
    if (stopped || token === null) return;
    clearTimeout(timer);
    source?.close();
    reopened = true;
    open();
  });

  return {
    stop() {
      stopped = true;
      unlisten();
      clearTimeout(timer);
      source?.close();
    },
  };
}

/**
 * `subscribe` for a component: the latest handlers are called (so they may close over state),
 * and the stream is opened again only when `key` changes, and closed on unmount.
 */
export function useLive(filter: LiveFilter | null, handlers: LiveHandlers, key: unknown): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!filter) return;
    const proxy = Object.fromEntries(
      (Object.keys(latest.current) as (keyof LiveHandlers)[]).map((name) => [
        name,
        (data: never) => (latest.current[name] as ((data: never) => void) | undefined)?.(data),
      ]),
    ) as unknown as LiveHandlers;
    const subscription = subscribe(filter, proxy);
    return () => subscription.stop();
  }, [key]);
}
