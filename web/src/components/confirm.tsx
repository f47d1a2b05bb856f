import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

interface Props {
  open: boolean;
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  children: ComponentChildren;
}

/** A modal question before something that cannot be undone (the browser's <dialog>: focus trapped, Esc cancels). */
export function ConfirmDialog({ open, title, confirmLabel, onConfirm, onCancel, children }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} class="confirm" aria-labelledby={`${id}-title`} onCancel={onCancel}>
      <h2 id={`${id}-title`}>{title}</h2>
      <div>{children}</div>
      <div class="actions">
        <button type="button" class="ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
