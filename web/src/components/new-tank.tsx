import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { type FieldErrors, fieldErrors } from '../api/errors';
import type { Prototype } from '../api/types';
import { smallestFreeId, tankNameProblem } from '../domain/tanks';
import { FormError, TextField } from './fields';

/** The name form of a new tank: its id is the smallest free one, so the grower never picks ids. */
export function NewTankForm({
  prototypes,
  onCreated,
  onCancel,
}: {
  prototypes: Prototype[];
  onCreated: (p: Prototype) => void;
  onCancel?: () => void;
}) {
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const create = async (event: Event) => {
    event.preventDefault();
    const problem = tankNameProblem(name);
    if (problem) return setErrors({ prototype_name: problem });
    setBusy(true);
    try {
      const created = await api.createPrototype({ prototype_id: smallestFreeId(prototypes), prototype_name: name.trim() });
      setErrors({});
      setName('');
      onCreated(created);
    } catch (error) {
      setErrors(fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="new-tank" onSubmit={create} aria-label="New tank">
      <TextField
        label="Tank name"
        name="prototype_name"
        errors={errors}
        value={name}
        onValue={setName}
        disabled={busy}
        hint="For example “Lettuce, bay 2”"
      />
      <FormError errors={errors} names={['_form', 'prototype_id']} />
      <div class="actions">
        {onCancel && (
          <button type="button" class="ghost" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" disabled={busy}>
          Create tank
        </button>
      </div>
    </form>
  );
}

/** "New tank" beside the tank picker: a modal with the name form. */
export function NewTankButton({ prototypes, onCreated }: { prototypes: Prototype[]; onCreated: (p: Prototype) => void }) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  const close = () => {
    setOpen(false);
    opener.current?.focus();
  };
  return (
    <>
      <button type="button" class="ghost" ref={opener} onClick={() => setOpen(true)}>
        New tank
      </button>
      <dialog ref={dialog} class="confirm" aria-labelledby={`${id}-title`} onCancel={close}>
        <h2 id={`${id}-title`}>New tank</h2>
        {open && (
          <NewTankForm
            prototypes={prototypes}
            onCancel={close}
            onCreated={(created) => {
              setOpen(false);
              onCreated(created);
            }}
          />
        )}
      </dialog>
    </>
  );
}
