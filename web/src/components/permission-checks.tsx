import { useId } from 'preact/hooks';
import { PERMISSION_CHOICES } from '../domain/users';

interface Props {
  value: number;
  onValue: (bits: number) => void;
  disabled?: boolean;
  /** Each permission's meaning under its name (the form that makes a user); the list of users keeps to the names. */
  explained?: boolean;
  error?: string;
}

/** A user's permissions as checkboxes with words (docs/api.md §6.1), kept as the bits the service stores. */
export function PermissionChecks({ value, onValue, disabled, explained = false, error }: Props) {
  const id = useId();
  return (
    <fieldset
      class={`permission-checks${explained ? ' explained' : ''}${error ? ' has-error' : ''}`}
      data-field="permissions"
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>Permissions</legend>
      <div class="permission-list">
        {PERMISSION_CHOICES.map((choice) => (
          <div class="permission" key={choice.name} data-permission={choice.name}>
            <label class="check">
              <input
                type="checkbox"
                name={choice.name}
                checked={(value & choice.bit) !== 0}
                disabled={disabled}
                aria-describedby={explained ? `${id}-${choice.name}` : undefined}
                onChange={(e) => onValue(e.currentTarget.checked ? value | choice.bit : value & ~choice.bit)}
              />
              {choice.label}
            </label>
            {explained && (
              <small id={`${id}-${choice.name}`} class="muted">
                {choice.meaning}
              </small>
            )}
          </div>
        ))}
      </div>
      {error && (
        <small id={`${id}-error`} class="field-error" role="alert">
          {error}
        </small>
      )}
    </fieldset>
  );
}
