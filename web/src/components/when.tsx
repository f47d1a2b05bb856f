import { localDateTime, localDateTimeZoned, localTime } from '../domain/local-time';
import { timeSince } from '../domain/time';

interface Props {
  /** The service's ISO 8601 instant. */
  at: string | number;
  /** Given: "5 min ago" (with `both`, followed by the local time). */
  nowMs?: number;
  both?: boolean;
  /** The time of day alone, for an instant of today's work (a frame, the end of a pause). */
  timeOnly?: boolean;
}

/** An instant as the grower reads it: local, or how long ago; the tooltip has the local time with seconds and its zone. */
export function When({ at, nowMs, both = false, timeOnly = false }: Props) {
  const local = timeOnly ? localTime(at) : localDateTime(at);
  const iso = typeof at === 'number' ? new Date(at).toISOString() : at;
  const ago = nowMs === undefined ? null : timeSince(iso, nowMs);
  return (
    <time dateTime={iso} title={localDateTimeZoned(at)}>
      {ago === null ? local : both ? `${ago} (${local})` : ago}
    </time>
  );
}
