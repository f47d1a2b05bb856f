import { useId, useState } from 'preact/hooks';
import { type FieldErrors, fieldErrors } from '../api/errors';
import type { Note, NoteInput } from '../api/records';
import { parseTags } from '../domain/journal';
import { FormError, TextField } from './fields';

/** A note's text holds at most this many characters (docs/api.md §15). */
export const NOTE_MAX = 2000;

interface Props {
  /** The note being edited; a new one without. */
  note?: Note;
  submit: string;
  save: (input: NoteInput) => Promise<Note>;
  onSaved: (note: Note) => void;
  onCancel: () => void;
}

/** A note's text and tags. A new note is written now: its time is the service's clock. */
export function NoteForm({ note, submit, save, onSaved, onCancel }: Props) {
  const [text, setText] = useState(note?.text ?? '');
  const [tags, setTags] = useState(note?.tags.join(', ') ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const id = useId();

  const send = async (event: Event) => {
    event.preventDefault();
    if (text.trim() === '') return setErrors({ text: 'Write the note first' });
    setBusy(true);
    try {
      const saved = await save({ text: text.trim(), tags: parseTags(tags) });
      setErrors({});
      onSaved(saved);
    } catch (error) {
      setErrors(fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };

  const error = errors.text;
  return (
    <form class="note-form" onSubmit={send} aria-label={submit}>
      <div class={`field${error ? ' has-error' : ''}`} data-field="text">
        <label for={`${id}-text`}>Note</label>
        <textarea
          id={`${id}-text`}
          name="text"
          rows={4}
          maxLength={NOTE_MAX}
          value={text}
          disabled={busy}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-count${error ? ` ${id}-error` : ''}`}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <small id={`${id}-count`} class="muted">
          {text.length} of {NOTE_MAX} characters
        </small>
        {error && (
          <small id={`${id}-error`} class="field-error" role="alert">
            {error}
          </small>
        )}
      </div>
      <TextField
        label="Tags"
        name="tags"
        errors={errors}
        value={tags}
        onValue={setTags}
        disabled={busy}
        hint="Optional, separated by commas: up to 8, e.g. “water change, filter”"
      />
      <FormError errors={errors} names={['_form', 'at']} />
      <div class="actions">
        <button type="button" class="ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={busy}>
          {submit}
        </button>
      </div>
    </form>
  );
}
