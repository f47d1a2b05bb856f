import { isoOf } from '../domain/date-time.js';
import { csvRow } from '../measurements/csv.js';
import type { DetailValue, JournalRecord, JournalSource } from './journal-sources.js';

const COMMON_COLUMNS = ['type', 'at', 'id', 'sensor_id', 'actuator_id', 'author', 'text', 'tags'] as const;

/** The columns of the journal's CSV: the common ones, then every source's detail keys, each once, in the sources' order. */
export function journalColumns(sources: readonly JournalSource[]): string[] {
  return [...COMMON_COLUMNS, ...new Set(sources.flatMap((s) => s.detailKeys))];
}

/**
 * Free text a person wrote (a note, a tag, a name) as a spreadsheet will show it: one that starts
 * like a formula (`=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`, so opening
 * the file never runs what someone typed into a note (CSV injection). So is every place where a
 * formula would start after a separator a spreadsheet may be told to split on (`;`, `,`, tab, `|`,
 * spaces after it too): `x;=1+2;` opened as `;`-separated would otherwise make `=1+2` a cell.
 */
export const spreadsheetText = (text: string): string =>
  text.replace(/^[=+\-@\t\r]/, "'$&").replace(/([;,\t|][ ]*)([=+\-@\t\r])/g, "$1'$2");

/** A field as text: nothing for null, `true`/`false`, numbers as JSON writes them. */
const fieldOf = (value: DetailValue | undefined): string | number =>
  value === null || value === undefined ? '' : typeof value === 'boolean' ? String(value) : value;

/** One entry as a CSV line: its detail under the columns of its keys, the others left empty. */
export function journalLine(record: JournalRecord, columns: readonly string[]): string {
  const detailColumns = columns.slice(COMMON_COLUMNS.length);
  return csvRow([
    record.type,
    isoOf(record.at),
    record.id,
    fieldOf(record.sensor_id),
    fieldOf(record.actuator_id),
    record.author === null ? '' : spreadsheetText(record.author),
    record.text === null ? '' : spreadsheetText(record.text),
    record.tags.map(spreadsheetText).join('; '),
    ...detailColumns.map((key) => fieldOf(record.detail[key])),
  ]);
}

/** The journal as CSV text: the header, then each page's lines as it is read. */
export async function* journalCsv(
  sources: readonly JournalSource[],
  pages: AsyncIterable<readonly JournalRecord[]>,
): AsyncGenerator<string> {
  const columns = journalColumns(sources);
  yield csvRow(columns);
  for await (const page of pages) {
    let chunk = '';
    for (const record of page) chunk += journalLine(record, columns);
    if (chunk !== '') yield chunk;
  }
}
