import { useId } from 'preact/hooks';
import type { FieldErrors } from '../api/errors';

interface Props {
  label: string;
  name: string;
  errors: FieldErrors;
  value: string;
  onValue: (value: string) => void;
  hint?: string;
  disabled?: boolean;
}

/** A new password, with the service's message for it underneath; the browser may offer to generate and keep it. */
export function PasswordField({ label, name, errors, value, onValue, hint, disabled }: Props) {
  const id = useId();
  const error = errors[name];
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${error ? ' has-error' : ''}`} data-field={name}>
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="password"
        autoComplete="new-password"
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
      {hint && (
        <small id={`${id}-hint`} class="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} class="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}
