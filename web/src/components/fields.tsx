import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import type { FieldErrors } from '../api/errors';

interface FieldProps {
  label: string;
  name: string;
  errors: FieldErrors;
  hint?: string;
  disabled?: boolean;
}

/** A labelled control with the service's message for that field under it (and tied to it for screen readers). */
function Field({
  label,
  name,
  errors,
  hint,
  children,
}: FieldProps & { children: (ids: { id: string; describedBy?: string; invalid: boolean }) => ComponentChildren }) {
  const id = useId();
  const error = errors[name];
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${error ? ' has-error' : ''}`} data-field={name}>
      <label for={id}>{label}</label>
      {children({ id, describedBy: described, invalid: Boolean(error) })}
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

export function TextField(
  props: FieldProps & { value: string; onValue: (value: string) => void; inputMode?: 'decimal' | 'numeric' | 'text' },
) {
  const { value, onValue, inputMode, disabled } = props;
  return (
    <Field {...props}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          name={props.name}
          type="text"
          inputMode={inputMode}
          value={value}
          disabled={disabled}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onInput={(e) => onValue(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** Numbers are edited as text: the service, not the browser, says what is wrong with a value. */
export function NumberField(props: FieldProps & { value: string; onValue: (value: string) => void }) {
  return <TextField {...props} inputMode="decimal" />;
}

export function SelectField<T extends string | number>(
  props: FieldProps & { value: T; options: readonly { value: T; label: string }[]; onValue: (value: T) => void },
) {
  const { value, options, onValue, disabled } = props;
  return (
    <Field {...props}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          name={props.name}
          value={String(value)}
          disabled={disabled}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => {
            const chosen = options.find((option) => String(option.value) === e.currentTarget.value);
            if (chosen) onValue(chosen.value);
          }}
        >
          {options.map((option) => (
            <option key={option.value} value={String(option.value)}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function CheckField({
  label,
  name,
  checked,
  onValue,
  disabled,
}: {
  label: string;
  name: string;
  checked: boolean;
  onValue: (value: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <label class="check" data-field={name}>
      <input type="checkbox" name={name} checked={checked} disabled={disabled} onChange={(e) => onValue(e.currentTarget.checked)} />
      {label}
    </label>
  );
}

/** Errors that name no single field (or a group of them), shown above the buttons. */
export function FormError({ errors, names }: { errors: FieldErrors; names: string[] }) {
  const messages = names.map((name) => errors[name]).filter(Boolean);
  if (messages.length === 0) return null;
  return (
    <p class="error" role="alert" data-field={names.join(' ')}>
      {messages.join('; ')}
    </p>
  );
}

/** A form's submit button, the buttons beside it, and the short confirmation screen readers announce. */
export function FormActions({
  submit,
  disabled,
  status,
  children,
}: {
  submit: string;
  disabled: boolean;
  status: string;
  children?: ComponentChildren;
}) {
  return (
    <div class="actions">
      <button type="submit" disabled={disabled}>
        {submit}
      </button>
      {children}
      <span class="status" role="status">
        {status}
      </span>
    </div>
  );
}
