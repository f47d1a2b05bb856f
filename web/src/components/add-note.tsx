import { useRef, useState } from 'preact/hooks';
import { recordsApi } from '../api/records-endpoints';
import type { Prototype } from '../api/types';
import { Modal } from './modal';
import { NoteForm } from './note-form';

/**
 * *Add note* in the header, on every page: a note on the chosen tank in one step (text, tags;
 * written now). The pages that show notes hear of it from the event stream.
 */
export function AddNoteButton({ prototype }: { prototype: Prototype }) {
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState('');
  const opener = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    opener.current?.focus();
  };
  return (
    <>
      <button
        type="button"
        class="ghost add-note"
        ref={opener}
        onClick={() => {
          setStatus('');
          setOpen(true);
        }}
      >
        Add note
      </button>
      <span class="visually-hidden" role="status">
        {status}
      </span>
      <Modal open={open} title={`Note on ${prototype.prototype_name}`} onClose={close} class="note-dialog">
        <NoteForm
          submit="Add note"
          save={(input) => recordsApi.addNote(prototype.prototype_id, input)}
          onSaved={() => {
            setStatus('Note added.');
            close();
          }}
          onCancel={close}
        />
      </Modal>
    </>
  );
}
