import type { Activation } from '../domain/activation.js';
import type { Readable } from 'node:stream';
import { measurementJson } from '../domain/measurement-json.js';
import type { StoredMeasurement } from '../store/index.js';

export { measurementJson };

/**
 * A JSON array of measurements as UTF-8 bytes: the answer to a batch. The text is built once and
 * encoded once, and the reply sends the bytes as they are; joined from an array of row texts and
 * sent as a string, the whole answer was copied three more times (the join, the flattening to
 * measure its length, the encoding to write it), most of a batch request's short-lived garbage.
 */
export function measurementArrayJson(rows: readonly StoredMeasurement[]): Buffer {
  let text = '[';
  for (let i = 0; i < rows.length; i++) text += (i === 0 ? '' : ',') + measurementJson(rows[i]);
  return Buffer.from(`${text}]`);
}

/** An activation decision as JSON text, the same as the response schema writes it. */
export const activationJson = (a: Activation & { aim?: { setpoint: number | null; error: number | null; gain: number | null } }) =>
  `{"activate":${a.activate},"status":${JSON.stringify(a.status)},"reason":${JSON.stringify(a.reason)},"duration":${a.duration},"period":${a.period}` +
  // A set point's aim (docs/api.md §17), only for actuators that have one.
  (a.aim ? `,"setpoint":${jsonNumber(a.aim.setpoint)},"error":${jsonNumber(a.aim.error)},"gain":${jsonNumber(a.aim.gain)}}` : '}');

const jsonNumber = (n: number | null) => (n === null || !Number.isFinite(n) ? 'null' : String(n));

/**
 * A JSON array of measurements, one chunk per page read, so a window of millions of rows never
 * sits in memory whole (as objects, then as one JSON text longer than a string can be).
 */
export async function* jsonArray(pages: AsyncIterable<readonly StoredMeasurement[]>): AsyncGenerator<string> {
  let separator = '[';
  for await (const page of pages) {
    let text = '';
    for (const m of page) {
      text += separator + measurementJson(m);
      separator = ',';
    }
    yield text;
  }
  // An empty series still makes a whole array.
  yield separator === '[' ? '[]' : ']';
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends a body that is already the JSON text of the route's response schema — a string, its UTF-8 bytes, or a
 * stream of its text — with the JSON content type. The route's typing expects the objects the
 * schema serializer would write; this is the one place that hands the reply their text instead.
 */
export function sendJsonText<R>(reply: { type(contentType: string): { send(payload: never): R } }, body: string | Buffer | Readable): R {
  return reply.type(JSON_TYPE).send(body as never);
}
