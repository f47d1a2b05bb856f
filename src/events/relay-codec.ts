import type { Changes, Topic } from '../core/bus.js';

/**
 * How committed changes travel between instances in PostgreSQL notifications, whose payload is
 * at most 8000 bytes. Measurements travel as their sensors, the span of their timestamps and their
 * id ranges (a batch's ids are mostly consecutive), and the receiving instance reads the rows
 * back by those sensors and times (one partition, one shard each); a note written or
 * changed travels as its id (its text alone may pass the limit) and is read back the same way; the
 * other changes are small objects and travel whole.
 */

/** The topics relayed; `decision` is worked out by every instance from the others. */
export type RelayedTopic = Exclude<Topic, 'decision' | 'measurements'>;

export type RelayRecord =
  | { topic: 'measurements'; sensorIds: number[]; from: number; to: number; ranges: [number, number][] }
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
const MEASURED_SENSORS_PER_RECORD = 100;
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
    return measurementRecords(rows);
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

/**
 * A commit's rows as records of at most MEASURED_SENSORS_PER_RECORD sensors and RANGES_PER_RECORD
 * id ranges each, every record naming its sensors and the span of its rows' timestamps.
 */
function measurementRecords(rows: readonly { measurement_id: number; sensor_id: number; timestamp: number }[]): RelayRecord[] {
  const bySensor = new Map<number, { ids: number[]; from: number; to: number }>();
  for (const r of rows) {
    const entry = bySensor.get(r.sensor_id);
    if (!entry) bySensor.set(r.sensor_id, { ids: [r.measurement_id], from: r.timestamp, to: r.timestamp });
    else {
      entry.ids.push(r.measurement_id);
      if (r.timestamp < entry.from) entry.from = r.timestamp;
      if (r.timestamp > entry.to) entry.to = r.timestamp;
    }
  }
  const records: RelayRecord[] = [];
  let current: Extract<RelayRecord, { topic: 'measurements' }> | undefined;
  for (const sensorId of [...bySensor.keys()].sort((a, b) => a - b)) {
    const entry = bySensor.get(sensorId) as { ids: number[]; from: number; to: number };
    for (const ranges of chunks(idRanges(entry.ids), RANGES_PER_RECORD)) {
      if (
        !current ||
        current.sensorIds.length >= MEASURED_SENSORS_PER_RECORD ||
        current.ranges.length + ranges.length > RANGES_PER_RECORD
      ) {
        current = { topic: 'measurements', sensorIds: [], from: entry.from, to: entry.to, ranges: [] };
        records.push(current);
      }
      if (current.sensorIds[current.sensorIds.length - 1] !== sensorId) current.sensorIds.push(sensorId);
      current.from = Math.min(current.from, entry.from);
      current.to = Math.max(current.to, entry.to);
      current.ranges.push(...ranges);
    }
  }
  return records;
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
