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
  const parts = `regexp_match(${shortestExponentText(v)}, '^(-?)([0-9])(?:\\.([0-9]+))?e([-+][0-9]+)$')`;
  return `case when ${v} = 0 then '0' when abs(${v}) >= 1e-4 and abs(${v}) < 1e15 then ${v}::text
    else (select case
      when e >= 21 or e <= -7 then s || d || coalesce('.' || r, '') || 'e' || case when e > 0 then '+' else '-' end || abs(e)::text
      when e >= 0 then s || rpad(d || coalesce(r, ''), e + 1, '0') || case when length(coalesce(r, '')) > e then '.' || substr(r, e + 1) else '' end
      else s || '0.' || repeat('0', -e - 1) || d || coalesce(r, '') end
      from (select m[1] as s, m[2] as d, m[3] as r, m[4]::int as e from (select ${parts} as m) x) y) end`;
}

/**
 * PostgreSQL's text of a double in exponent form, with JavaScript's digits. From 2^53 up, where
 * doubles are integers spaced 2 or more apart, a decimal lying exactly halfway between two of them
 * can be the shortest one that reads back as the value (the even one): JavaScript writes it,
 * PostgreSQL's shortest-digits output does not (4.4324914927017504e+16 against 44324914927017500).
 * There the shortest decimal that reads back as the value is searched for; below 2^53 the two
 * agree.
 */
function shortestExponentText(v: string): string {
  const exact = `${v}::text::numeric`;
  const exponent = `(length(trunc(abs(${exact}))::text) - 1)`;
  const candidate = `(select c from (select round(${exact}, least(0, k - 1 - ${exponent})) as c, k from generate_series(1, 17) as k) z
    where case when abs(c) < 1.7976931348623158e308 then c::float8 = ${v} else false end order by k limit 1)`;
  const digits = `rtrim(abs(c)::text, '0')`;
  return `case when abs(${v}) < 9007199254740992 then ${v}::text
    else (select case when ${v} < 0 then '-' else '' end || left(${digits}, 1)
      || case when length(${digits}) > 1 then '.' || substr(${digits}, 2) else '' end
      || 'e+' || (length(abs(c)::text) - 1)::text from (select ${candidate} as c) w) end`;
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
