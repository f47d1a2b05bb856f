import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import type { JournalEntry, Note } from '../api/records';
import { journalCsvPath, recordsApi } from '../api/records-endpoints';
import { queryString } from '../api/client';
import type { Actuator, Sensor } from '../api/types';
import { ActionProblem, useAction } from '../components/action';
import { ConfirmDialog } from '../components/confirm';
import { SelectField } from '../components/fields';
import { JournalIcon } from '../components/journal-icon';
import { NoteForm } from '../components/note-form';
import { useDashboard } from '../context';
import {
  applyNoteChange,
  canEditNote,
  entryKey,
  entryNote,
  entryText,
  groupByDay,
  journalTypes,
  type JournalNames,
  noteEntry,
  noteOfChange,
  tagsOf,
  TYPE_FILTERS,
  typeLabel,
} from '../domain/journal';
import { actuatorName, sensorName } from '../domain/labels';
import { localDateTimeZoned, localTime, zoneLabel } from '../domain/local-time';
import { tokenUsername } from '../domain/session-token';
import { useLive } from '../live';
import { storedToken } from '../state/session';
import { useNow } from '../state/clock';

/** Entries read per page; *Older entries* reads the next. */
export const JOURNAL_PAGE = 100;
/** Changes that are not notes (a dose, a lockout, a pause…) read the first page again, at most this often. */
const RELOAD_AFTER_MS = 1000;

interface Filter {
  /** One type, or every type. */
  type: string;
  /** Notes carrying this tag; empty: no tag filter. */
  tag: string;
}

/** The journal's query for a filter: its types and tag, each left out when not chosen. */
const filterQuery = (filter: Filter) => ({ type: journalTypes(filter.type), tag: filter.tag.trim() || undefined });

/** Whether an entry belongs in the list the filter shows. */
function fits(entry: JournalEntry, filter: Filter): boolean {
  if (filter.type && !filter.type.split(',').includes(entry.type)) return false;
  const tag = filter.tag.trim();
  return tag === '' || entry.tags.includes(tag);
}

/**
 * The tank's journal, newest first: notes, doses, calibrations, lockouts, unlocks, refills and
 * pauses (docs/api.md §15), by local day and time, filtered by type or a note's tag, with the
 * grower's own notes editable, and the CSV of it. Kept current by the event stream.
 */
export function JournalPage() {
  const { prototype, canModify } = useDashboard();
  const [filter, setFilter] = useState<Filter>({ type: '', tag: '' });
  const [entries, setEntries] = useState<JournalEntry[] | null>(null);
  const [more, setMore] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sensors, setSensors] = useState<Sensor[]>([]);
  const [actuators, setActuators] = useState<Actuator[]>([]);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const nowMs = useNow(60_000);
  const username = tokenUsername(storedToken());

  useEffect(() => {
    api.sensors(prototype.prototype_id).then(setSensors, () => setSensors([]));
    api.actuators(prototype.prototype_id).then(setActuators, () => setActuators([]));
  }, [prototype.prototype_id]);

  const names = useMemo<JournalNames>(
    () => ({
      sensor: (id) => {
        const sensor = sensors.find((s) => s.sensor_id === id);
        return sensor ? sensorName(sensor) : `Sensor #${id}`;
      },
      actuator: (id) => {
        const actuator = actuators.find((a) => a.actuator_id === id);
        return actuator ? actuatorName(actuator) : `Pump #${id}`;
      },
    }),
    [sensors, actuators],
  );

  /** The first page again, or with `after` the next older one. */
  const read = useCallback(
    async (after?: JournalEntry) => {
      setBusy(true);
      try {
        const page = await recordsApi.journal(prototype.prototype_id, {
          ...filterQuery(filter),
          limit: JOURNAL_PAGE,
          before: after?.cursor,
        });
        setEntries((current) => {
          if (!after || !current) return page;
          const known = new Set(current.map(entryKey));
          return [...current, ...page.filter((entry) => !known.has(entryKey(entry)))];
        });
        setMore(page.length >= JOURNAL_PAGE);
        setFailure(null);
      } catch (error) {
        setFailure((error as Error).message);
      } finally {
        setBusy(false);
      }
    },
    [prototype.prototype_id, filter.type, filter.tag],
  );
  useEffect(() => {
    setEntries(null);
    void read();
  }, [read]);
  useEffect(() => () => clearTimeout(reloadTimer.current), []);

  const readSoon = () => {
    clearTimeout(reloadTimer.current);
    reloadTimer.current = setTimeout(() => void read(), RELOAD_AFTER_MS);
  };
  const noteChanged = (change: Parameters<typeof applyNoteChange>[1]) => {
    const { note } = noteOfChange(change);
    setEntries((current) => {
      if (!current) return current;
      // A note the filter does not show leaves the list; one it shows takes its place by time.
      if (note && !fits(noteEntry(note), filter)) return applyNoteChange(current, { deleted: note.note_id });
      return applyNoteChange(current, change);
    });
  };

  useLive(
    { prototypeId: prototype.prototype_id },
    {
      note: noteChanged,
      dose: readSoon,
      actuator: readSoon,
      prototype: readSoon,
      sensor: readSoon,
      reset: () => void read(),
    },
    prototype.prototype_id,
  );

  const tags = useMemo(() => tagsOf(entries ?? []), [entries]);
  const groups = useMemo(() => groupByDay(entries ?? [], nowMs), [entries, nowMs]);

  return (
    <div class="journal" data-loaded={entries ? 'true' : undefined}>
      <div class="card journal-controls">
        <SelectField
          label="Show"
          name="type"
          errors={{}}
          value={filter.type}
          options={TYPE_FILTERS}
          onValue={(type) => setFilter({ ...filter, type })}
        />
        <TagFilter tag={filter.tag} tags={tags} onTag={(tag) => setFilter({ ...filter, tag })} />
        <CsvLink prototypeId={prototype.prototype_id} name={prototype.prototype_name} filter={filter} />
        <p class="muted journal-zone">Times in {zoneLabel(nowMs)}.</p>
      </div>
      {failure && (
        <p class="error" role="alert">
          Could not read the journal: {failure}
        </p>
      )}
      {!entries && !failure && <p class="loading">Loading…</p>}
      {entries && entries.length === 0 && (
        <p class="muted journal-empty">
          {filter.type || filter.tag
            ? 'Nothing of this kind recorded.'
            : 'Nothing recorded yet. Doses, calibrations, refills and pauses appear here by themselves; add a note with “Add note” at the top of any page.'}
        </p>
      )}
      {groups.map((group) => (
        <section key={group.key} class="journal-day" aria-labelledby={`day-${group.key}`}>
          <h2 id={`day-${group.key}`}>{group.label}</h2>
          <ol class="journal-list">
            {group.entries.map((entry) => (
              <JournalItem
                key={entryKey(entry)}
                entry={entry}
                prototypeId={prototype.prototype_id}
                names={names}
                editable={(note) => canEditNote(note, username, canModify)}
                onTag={(tag) => setFilter({ type: '', tag })}
                onNote={(note) => setEntries((current) => current && applyNoteChange(current, note))}
                onDeleted={(id) => setEntries((current) => current && applyNoteChange(current, { deleted: id }))}
              />
            ))}
          </ol>
        </section>
      ))}
      {more && entries && (
        <div class="actions">
          <button type="button" class="ghost" disabled={busy} onClick={() => void read(entries.at(-1))}>
            Older entries
          </button>
        </div>
      )}
    </div>
  );
}

/** The tag filter: type a tag or pick one the notes shown carry. */
function TagFilter({ tag, tags, onTag }: { tag: string; tags: string[]; onTag: (tag: string) => void }) {
  const [text, setText] = useState(tag);
  const id = useId();
  useEffect(() => setText(tag), [tag]);
  const apply = (event: Event) => {
    event.preventDefault();
    onTag(text.trim());
  };
  return (
    <form class="tag-filter" onSubmit={apply} role="search" aria-label="Notes by tag">
      <div class="field">
        <label for={id}>Tag</label>
        <input id={id} name="tag" list="journal-tags" value={text} placeholder="any" onInput={(e) => setText(e.currentTarget.value)} />
      </div>
      <datalist id="journal-tags">
        {tags.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <button type="submit" class="ghost">
        Filter
      </button>
      {tag && (
        <button type="button" class="ghost" onClick={() => onTag('')}>
          Clear tag
        </button>
      )}
    </form>
  );
}

/** The journal as CSV: a real link (open mode, or a right click), fetched with the session's token on a click. */
function CsvLink({ prototypeId, name, filter }: { prototypeId: number; name: string; filter: Filter }) {
  const { busy, problem, act } = useAction();
  // The file holds what the page shows: the same types and tag, every entry of them.
  const query = filterQuery(filter);
  const download = (event: Event) => {
    event.preventDefault();
    void act('download the journal', async () => {
      const blob = await recordsApi.journalCsv(prototypeId, query);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${name.replace(/[^\w.-]+/g, '_')}_journal.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    });
  };
  return (
    <p class="journal-csv">
      <a href={journalCsvPath(prototypeId) + queryString(query)} onClick={download} aria-disabled={busy || undefined} download>
        Download the journal (CSV)
      </a>
      <ActionProblem problem={problem} />
    </p>
  );
}

interface ItemProps {
  entry: JournalEntry;
  prototypeId: number;
  names: JournalNames;
  editable: (note: Note) => boolean;
  onTag: (tag: string) => void;
  onNote: (note: Note) => void;
  onDeleted: (noteId: number) => void;
}

function JournalItem({ entry, prototypeId, names, editable, onTag, onNote, onDeleted }: ItemProps) {
  const note = entryNote(entry, prototypeId);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const { busy, problem, act } = useAction();
  const label = typeLabel(entry.type);
  const mine = note !== null && editable(note);

  const remove = () => {
    setDeleting(false);
    if (!note) return;
    void act('delete the note', async () => {
      await recordsApi.deleteNote(note.note_id);
      onDeleted(note.note_id);
    });
  };

  return (
    <li class={`journal-entry type-${entry.type}`} data-type={entry.type} data-key={entryKey(entry)}>
      <JournalIcon type={entry.type} />
      <div class="entry-body">
        <p class="entry-head">
          <span class="entry-type">{label}</span>{' '}
          <time dateTime={entry.at} title={localDateTimeZoned(entry.at)}>
            {localTime(entry.at)}
          </time>
          {entry.type === 'note' && entry.author && <span class="muted"> · {entry.author}</span>}
        </p>
        {editing && note ? (
          <NoteForm
            note={note}
            submit="Save note"
            save={(input) => recordsApi.updateNote(note.note_id, { text: input.text, tags: input.tags })}
            onSaved={(saved) => {
              setEditing(false);
              onNote(saved);
            }}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <p class="entry-text">{entryText(entry, names)}</p>
        )}
        {!editing && note && note.tags.length > 0 && (
          <ul class="tags" aria-label="Tags">
            {note.tags.map((tag) => (
              <li key={tag}>
                <button type="button" class="tag" onClick={() => onTag(tag)} aria-label={`Show notes tagged ${tag}`}>
                  {tag}
                </button>
              </li>
            ))}
          </ul>
        )}
        {!editing && mine && (
          <div class="entry-actions">
            <button type="button" class="ghost" disabled={busy} onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" class="ghost danger-text" disabled={busy} onClick={() => setDeleting(true)}>
              Delete
            </button>
            <ActionProblem problem={problem} />
          </div>
        )}
      </div>
      {mine && (
        <ConfirmDialog
          open={deleting}
          title="Delete this note?"
          confirmLabel="Delete"
          onConfirm={remove}
          onCancel={() => setDeleting(false)}
        >
          <p class="muted">“{note.text.length > 120 ? `${note.text.slice(0, 120)}…` : note.text}”</p>
          <p>It is removed from the journal and the charts. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </li>
  );
}
