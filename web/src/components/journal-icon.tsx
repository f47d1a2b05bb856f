/** Line drawings (24 × 24, stroked in the text colour) of each kind of journal entry. */
const PATHS: Record<string, string> = {
  // A page with a folded corner and lines of text.
  note: 'M6 3h9l4 4v14H6z M15 3v4h4 M9 12h7 M9 16h5',
  // A drop.
  dose: 'M12 3c3 4.5 6 8 6 11a6 6 0 0 1-12 0c0-3 3-6.5 6-11z',
  // A target: the probe set to its buffers.
  calibration: 'M12 3v4 M12 17v4 M3 12h4 M17 12h4 M12 7a5 5 0 1 0 0.01 0z M12 11a1 1 0 1 0 0.01 0z',
  // A closed padlock.
  lockout: 'M6 11h12v10H6z M8.5 11V8a3.5 3.5 0 0 1 7 0v3',
  // An open padlock.
  unlock: 'M6 11h12v10H6z M8.5 11V8a3.5 3.5 0 0 1 6.8-1.2',
  // A bottle.
  refill: 'M10 3h4v3l2 3v12H8V9l2-3z M8 14h8',
  // Two bars.
  pause: 'M8 5h3v14H8z M13 5h3v14h-3z',
  // A play triangle.
  resume: 'M8 5l11 7-11 7z',
  // Two sliders.
  settings: 'M4 8h16 M4 16h16 M9 5v6 M15 13v6',
  // A hand raised: held back.
  hold: 'M4 12h16 M12 4a8 8 0 1 0 0.01 0z',
};

export function JournalIcon({ type }: { type: string }) {
  return (
    <svg class={`journal-icon type-${type}`} viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path d={PATHS[type] ?? 'M12 7a5 5 0 1 0 0.01 0z'} fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round" />
    </svg>
  );
}
