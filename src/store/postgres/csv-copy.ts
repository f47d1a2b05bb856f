import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { TimeWindow } from '../../domain/time-window.js';

/**
 * A double as text exactly as JavaScript's String() writes it. PostgreSQL writes the same shortest
 * digits, in plain notation from 1e-4 up to 1e15 and as `1e-05` or `1.5e+20` outside; JavaScript
 * keeps plain notation from 1e-7 up to 1e21 and writes `1e-7`, `1.5e+21` beyond. Values in the
 * common range take the plain cast; the others are rewritten from PostgreSQL's exponent form.
 */
export function jsNumberSql(v: string): string {
  const parts = `regexp_match(${v}::text, '^(-?)([0-9])(?:\\.([0-9]+))?e([-+][0-9]+)$')`;
  return `case when ${v} = 0 then '0' when abs(${v}) >= 1e-4 and abs(${v}) < 1e15 then ${v}::text
    else (select case
      when e >= 21 or e <= -7 then s || d || coalesce('.' || r, '') || 'e' || case when e > 0 then '+' else '-' end || abs(e)::text
      when e >= 0 then s || rpad(d || coalesce(r, ''), e + 1, '0') || case when length(coalesce(r, '')) > e then '.' || substr(r, e + 1) else '' end
      else s || '0.' || repeat('0', -e - 1) || d || coalesce(r, '') end
      from (select m[1] as s, m[2] as d, m[3] as r, m[4]::int as e from (select ${parts} as m) x) y) end`;
}

/** A timestamp as JavaScript's toISOString() writes it (milliseconds, `Z`). */
const ISO = `to_char(timestamp at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
const at = (ms: number) => `timestamptz 'epoch' + ${Math.trunc(ms)}::int8 * interval '1 millisecond'`;

const LF = 0x0a;
const CRLF = Buffer.from('\r\n');

/** PostgreSQL's text COPY ends lines with \n; CSV's lines end with \r\n. */
function withCrlf(chunk: Buffer): Buffer {
  let lines = 0;
  for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, i + 1)) lines++;
  if (lines === 0) return chunk;
  const out = Buffer.allocUnsafe(chunk.length + lines);
  let from = 0;
  let to = 0;
  for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, from)) {
    to += chunk.copy(out, to, from, i);
    to += CRLF.copy(out, to);
    from = i + 1;
  }
  chunk.copy(out, to, from);
  return out;
}

/**
 * One sensor's measurements in a window as CSV lines written by the server (COPY … TO STDOUT):
 * `head`, the value, a comma, the timestamp, `tail`, CRLF; in time order, ties by id. Streams with
 * the connection held until the sensor's last line is read.
 */
export async function* copyCsvLines(
  pool: pg.Pool,
  sensorId: number,
  window: TimeWindow,
  head: string,
  tail: string,
): AsyncGenerator<Buffer> {
  const where = [`sensor_id = ${Math.trunc(sensorId)}`];
  if (window.start !== undefined) where.push(`timestamp >= ${at(window.start)}`);
  if (window.end !== undefined) where.push(`timestamp ${window.endInclusive ? '<=' : '<'} ${at(window.end)}`);
  const statement = `copy (select ${literal(head)} || ${jsNumberSql('value')} || ',' || ${ISO} || ${literal(tail)}
    from measurements where ${where.join(' and ')} order by timestamp, measurement_id) to stdout`;
  const client = await pool.connect();
  let failed = false;
  try {
    const stream = client.query(copyTo(statement));
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) yield withCrlf(chunk);
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      if (!stream.readableEnded) {
        // Stopped early (the client went away): the connection is mid-COPY and cannot be reused.
        failed = true;
        stream.destroy();
      }
    }
  } finally {
    client.release(failed ? true : undefined);
  }
}
