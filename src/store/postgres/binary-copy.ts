/**
 * Rows in PostgreSQL's binary COPY format (no text to format or parse per value): a header, each
 * row as its field count and then each field as its length and bytes, big-endian, and a trailer.
 */
const HEADER = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]);
const TRAILER = Buffer.from([0xff, 0xff]);
/** Microseconds from the Unix epoch to PostgreSQL's (2000-01-01). */
const PG_EPOCH_MS = 946_684_800_000;

export type FieldType = 'int4' | 'int8' | 'float8' | 'timestamptz';
const WIDTH: Record<FieldType, number> = { int4: 4, int8: 8, float8: 8, timestamptz: 8 };

/** Rows per buffer handed to the stream. */
const ROWS_PER_CHUNK = 8_192;

/**
 * The binary COPY stream of `count` rows whose fields are `types`, row `i`'s values written by
 * `row(i, out)` into `out` in field order; a generator of buffers for a COPY … FROM STDIN
 * (FORMAT binary). Integers and epoch-millisecond timestamps are exact up to 2^53.
 */
export function* binaryRows(types: readonly FieldType[], count: number, row: (i: number, out: number[]) => void): Generator<Buffer> {
  const rowBytes = 2 + types.reduce((n, t) => n + 4 + WIDTH[t], 0);
  const values: number[] = new Array(types.length);
  yield HEADER;
  for (let first = 0; first < count; first += ROWS_PER_CHUNK) {
    const n = Math.min(ROWS_PER_CHUNK, count - first);
    const buf = Buffer.allocUnsafe(n * rowBytes);
    let at = 0;
    for (let i = first; i < first + n; i++) {
      row(i, values);
      at = buf.writeInt16BE(types.length, at);
      for (let f = 0; f < types.length; f++) {
        const type = types[f];
        const v = values[f];
        at = buf.writeInt32BE(WIDTH[type], at);
        if (type === 'int4') at = buf.writeInt32BE(v, at);
        else if (type === 'float8') at = buf.writeDoubleBE(v, at);
        else if (type === 'int8') at = buf.writeBigInt64BE(BigInt(v), at);
        else at = buf.writeBigInt64BE(BigInt(v - PG_EPOCH_MS) * 1000n, at);
      }
    }
    yield buf;
  }
  yield TRAILER;
}
