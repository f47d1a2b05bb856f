/** One CSV field per RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(fields: readonly (string | number)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

export const EXPORT_HEADER = [
  'Sensor ID',
  'Sensor Type',
  'Sensor Value',
  'Timestamp',
  'Threshold Critically Low',
  'Threshold Low',
  'Threshold High',
  'Threshold Critically High',
] as const;
