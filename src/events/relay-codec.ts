import type { Changes, Topic } from '../core/bus.js';

/**
 * How committed changes travel between instances in PostgreSQL notifications, whose payload is
 * at most 8000 bytes. Measurements travel as id ranges (a batch's ids are mostly consecutive, so a
 * 10,000-row batch is one range) and the receiving instance reads the rows; a note written or
 * changed travels as its id (its text alone may pass the limit) and is read back the same way; the
 * other changes are small objects and travel whole.
 */

/** The topics relayed; `decision` is worked out by every instance from the others. */
export type RelayedTopic = Exclude<Topic, 'decision' | 'measurements'>;

export type RelayRecord =
  | { topic: 'measurements'; ranges: [number, number][] }
  | { topic: 'noteRef'; action: 'created' | 'updated'; noteId: number }
  | { [T in RelayedTopic]: { topic: T; change: Changes[T] } }[RelayedTopic];

export interface Notification {
  /** The instance that committed the changes: it does not take its own back. */
  origin: string;
  records: RelayRecord[];
}

/** Below PostgreSQL's 8000-byte limit, with room for the envelope. */
export const MAX_PAYLOAD_BYTES = 7900;
/** Per record, so that one record always fits a notification: ~20 bytes per range, ~11 per id. */
const RANGES_PER_RECORD = 300;
const SENSORS_PER_RECORD = 500;

/** Ascending ids → inclusive ranges of consecutive ids. */
export function idRanges(ids: readonly number[]): [number, number][] {
  const sorted = [...ids].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const id of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && id <= last[1] + 1) last[1] = Math.max(last[1], id);
    else ranges.push([id, id]);
  }
  return ranges;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** One change as the records that carry it, each small enough for a notification of its own. */
export function recordsOf<T extends Exclude<Topic, 'decision'>>(topic: T, change: Changes[T]): RelayRecord[] {
  if (topic === 'measurements') {
    const { rows } = change as Changes['measurements'];
    return chunks(idRanges(rows.map((r) => r.measurement_id)), RANGES_PER_RECORD).map((ranges) => ({ topic: 'measurements', ranges }));
  }
  if (topic === 'note') {
    const note = change as Changes['note'];
    if (note.action !== 'deleted') return [{ topic: 'noteRef', action: note.action, noteId: note.note.note_id }];
  }
  if (topic === 'generated') {
    const generated = change as Changes['generated'];
    return chunks(generated.sensorIds, SENSORS_PER_RECORD).map((sensorIds) => ({
      topic: 'generated',
      change: { ...generated, sensorIds },
    }));
  }
  return [{ topic, change } as RelayRecord];
}

/** Records, in order, packed into as few payloads as fit the limit. */
export function packPayloads(origin: string, records: readonly RelayRecord[]): string[] {
  const head = `{"origin":${JSON.stringify(origin)},"records":[`;
  const payloads: string[] = [];
  let body: string[] = [];
  let size = head.length + 2;
  for (const record of records) {
    const text = JSON.stringify(record);
    const bytes = Buffer.byteLength(text);
    if (body.length > 0 && size + bytes + 1 > MAX_PAYLOAD_BYTES) {
      payloads.push(`${head}${body.join(',')}]}`);
      body = [];
      size = head.length + 2;
    }
    body.push(text);
    size += bytes + 1;
  }
  if (body.length > 0) payloads.push(`${head}${body.join(',')}]}`);
  return payloads;
}

export function parsePayload(payload: string): Notification | undefined {
  try {
    const parsed = JSON.parse(payload) as Notification;
    return typeof parsed.origin === 'string' && Array.isArray(parsed.records) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
