/** "12 s ago", "3 min ago", "5 h ago", "2 d ago": the age of a reading at a glance. */
export function timeSince(timestamp: string, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - Date.parse(timestamp)) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

export interface TimeRange {
  startMs: number;
  endMs: number;
}

export const PRESET_RANGES = [
  { id: '1h', label: '1 h', ms: 3_600_000 },
  { id: '24h', label: '24 h', ms: 86_400_000 },
  { id: '7d', label: '7 d', ms: 7 * 86_400_000 },
  { id: '30d', label: '30 d', ms: 30 * 86_400_000 },
  { id: '1y', label: '1 y', ms: 365 * 86_400_000 },
] as const;
export type PresetId = (typeof PRESET_RANGES)[number]['id'];

export function presetRange(id: PresetId, nowMs: number): TimeRange {
  const preset = PRESET_RANGES.find((p) => p.id === id) ?? PRESET_RANGES[1];
  return { startMs: nowMs - preset.ms, endMs: nowMs };
}

/** The export's quick ranges: From that long before now, To left open (up to now); null: everything. */
export const EXPORT_PRESETS = [
  { id: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { id: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { id: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
  { id: 'all', label: 'All time', ms: null },
] as const;

/** The value of a `datetime-local` input for an instant, in the browser's time zone. */
export function toLocalInput(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (browser time zone) as an instant; NaN when empty or malformed. */
export function fromLocalInput(value: string): number {
  return value ? new Date(value).getTime() : Number.NaN;
}
