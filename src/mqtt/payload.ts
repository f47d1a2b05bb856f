/**
 * What a device may publish on `<prefix>/sensors/<id>/measurements` (§12), turned into the body
 * `POST /measurements` takes, before the same schema and service check it. Pure: no I/O.
 */
import { isNumericText, MAX_NUMERIC_TEXT } from '../domain/numeric-text.js';

/** The body of the equivalent `POST /measurements`, or why the payload cannot be one. */
export type ParsedPayload =
  { ok: true; body: Record<string, unknown> | Record<string, unknown>[]; batch: boolean } | { ok: false; reason: string };

/**
 * The largest payload taken on an ingest topic, checked before anything reads it: a day of a
 * device's buffered readings is far less, and whatever the service parses stays bounded.
 */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

/** Why a payload is too large to be looked at, or undefined. */
export function oversizeReason(payload: Uint8Array): string | undefined {
  if (payload.length <= MAX_PAYLOAD_BYTES) return undefined;
  return `the payload is ${payload.length} bytes, over the limit of ${MAX_PAYLOAD_BYTES} bytes (64 KiB)`;
}

/** How a plain number starts (`6.42`, `-3`, `+1`, `.5`), to tell one that is too long from JSON. */
const startsLikeNumber = (text: string) => /^[-+.\d]/.test(text);

const FORMS = 'a number (6.42), a JSON object {"value": …, "timestamp"?: …} or a JSON array of such objects';

const decoder = new TextDecoder('utf-8', { fatal: true });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The topic names the sensor; a payload may repeat it (`sensor_id`, a number or numeric string, as
 * in a body of `POST /measurements`) but not name another.
 */
function withSensor(item: Record<string, unknown>, sensorId: number, where: string): Record<string, unknown> | string {
  const named = item.sensor_id;
  if (named !== undefined && String(named).trim() !== String(sensorId)) {
    return `${where}sensor_id ${JSON.stringify(named).slice(0, 40)} is not the sensor of the topic (${sensorId})`;
  }
  return { ...item, sensor_id: sensorId };
}

export function parseMeasurementPayload(sensorId: number, payload: Uint8Array): ParsedPayload {
  const oversize = oversizeReason(payload);
  if (oversize) return { ok: false, reason: oversize };
  let text: string;
  try {
    text = decoder.decode(payload).trim();
  } catch {
    return { ok: false, reason: 'the payload is not UTF-8 text' };
  }
  if (text === '') return { ok: false, reason: `empty payload: expected ${FORMS}` };
  if (startsLikeNumber(text) && text.length > MAX_NUMERIC_TEXT) {
    return { ok: false, reason: `a number longer than ${MAX_NUMERIC_TEXT} characters is refused (${text.length} characters)` };
  }
  // A number as a device prints it: `6.42`, `-3`, `1e3`, `.5` (no hex, no `Infinity`, no `NaN`).
  if (isNumericText(text, 'number')) {
    const value = Number(text);
    if (!Number.isFinite(value)) return { ok: false, reason: `the value ${text.slice(0, 40)} is not a finite number` };
    return { ok: true, body: { sensor_id: sensorId, value }, batch: false };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `malformed JSON (${(error as Error).message}): expected ${FORMS}` };
  }
  if (isObject(parsed)) {
    const item = withSensor(parsed, sensorId, '');
    return typeof item === 'string' ? { ok: false, reason: item } : { ok: true, body: item, batch: false };
  }
  if (Array.isArray(parsed)) {
    const items: Record<string, unknown>[] = [];
    for (const [index, element] of parsed.entries()) {
      if (!isObject(element)) return { ok: false, reason: `element ${index} of the array is not an object {"value": …, "timestamp"?: …}` };
      const item = withSensor(element, sensorId, `element ${index}: `);
      if (typeof item === 'string') return { ok: false, reason: item };
      items.push(item);
    }
    return { ok: true, body: items, batch: true };
  }
  return { ok: false, reason: `expected ${FORMS}, got ${parsed === null ? 'null' : typeof parsed}` };
}

/** The start of a payload, as text a person can read in an error report. */
export function excerpt(payload: Uint8Array, maxChars = 200): string {
  const text = Buffer.from(payload.subarray(0, maxChars * 4)).toString('utf8');
  const chars = [...text];
  return chars.length > maxChars || payload.length > maxChars * 4 ? `${chars.slice(0, maxChars).join('')}…` : text;
}
