import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

interface Props {
  open: boolean;
  title: string;
  /** Esc, or the dialog's own close button: the opener gets the focus back from the caller. */
  onClose: () => void;
  class?: string;
  children: ComponentChildren;
}

/**
 * A modal form (the browser's <dialog>: focus kept inside, Esc closes). Its content is made only
 * while open, so each opening starts from fresh defaults.
 */
export function Modal({ open, title, onClose, class: className, children }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      class={`confirm${className ? ` ${className}` : ''}`}
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      {open && children}
    </dialog>
  );
}
