import { useEffect, useState } from 'preact/hooks';
import type { Note } from '../api/records';
import { recordsApi } from '../api/records-endpoints';
import { noteMarks, type PlotBox } from '../domain/chart-notes';
import { localDateTime, localDateTimeZoned } from '../domain/local-time';
import type { TimeRange } from '../domain/time';

/** At most this many notes are marked on one chart. */
const NOTES_READ = 500;

/**
 * The tank's notes for a chart's range (docs/api.md §15), and `changed`, for the page's event
 * stream to call on a `note` event: the notes are read again. A live range (it ends now) reads
 * every note from its start on, so a note written while it slides is there.
 */
export function useChartNotes(prototypeId: number, range: TimeRange | undefined, live: boolean): { notes: Note[]; changed: () => void } {
  const [notes, setNotes] = useState<Note[]>([]);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!range) return;
    let current = true;
    const query = {
      prototype_id: prototypeId,
      start_time: new Date(range.startMs).toISOString(),
      end_time: live ? undefined : new Date(range.endMs).toISOString(),
      limit: NOTES_READ,
    };
    // Without its notes the chart is drawn all the same.
    recordsApi.notes(query).then(
      (read) => current && setNotes(read),
      () => current && setNotes([]),
    );
    return () => {
      current = false;
    };
  }, [prototypeId, range?.startMs, range?.endMs, live, generation]);
  return { notes, changed: () => setGeneration((n) => n + 1) };
}

/**
 * The notes over a chart: a thin line down the plot at each note's time with a flag on top;
 * the flag shows the note's text on hover and on a tap (and to a screen reader as its name).
 * Notes too close to tell apart share one flag.
 */
export function ChartNotes({ notes, box }: { notes: readonly Note[]; box: PlotBox | null }) {
  const [open, setOpen] = useState<number | null>(null);
  const marks = noteMarks(notes, box);
  useEffect(() => {
    if (open === null) return;
    const close = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(null);
    window.addEventListener('keydown', close);
    return () => window.removeEventListener('keydown', close);
  }, [open]);
  if (!box) return null;
  return (
    <div class="chart-notes" data-note-marks={marks.length}>
      {marks.map((mark) => {
        const id = mark.notes[0].note_id;
        const said = mark.notes.map((note) => `${localDateTime(note.at)}: ${note.text}`).join('; ');
        return (
          <div
            key={id}
            class={`note-mark${open === id ? ' open' : ''}${mark.flagLeft ? ' flag-left' : ''}`}
            style={{ left: `${mark.x}px`, top: `${box.top}px`, height: `${box.height}px` }}
            data-note-ids={mark.notes.map((note) => note.note_id).join(' ')}
          >
            <span class="note-line" aria-hidden="true" />
            <button
              type="button"
              class="note-flag"
              aria-expanded={open === id}
              aria-label={`${mark.notes.length === 1 ? 'Note' : `${mark.notes.length} notes`} at ${said}`}
              onClick={() => setOpen(open === id ? null : id)}
            >
              {mark.notes.length > 1 ? mark.notes.length : ''}
            </button>
            <div class="note-tip" role="tooltip" style={{ left: `${mark.tipLeft}px`, maxWidth: `${mark.tipWidth}px` }}>
              {mark.notes.map((note) => (
                <p key={note.note_id}>
                  <time dateTime={note.at} title={localDateTimeZoned(note.at)}>
                    {localDateTime(note.at)}
                  </time>{' '}
                  {note.text}
                  {note.tags.length > 0 && <span class="muted"> · {note.tags.join(', ')}</span>}
                </p>
              ))}
            </div>
          </div>
        );
      })}
    </div>
  );
}
