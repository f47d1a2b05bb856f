import { useEffect, useId, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { type FieldErrors, fieldErrors } from '../api/errors';
import type { UserSummary } from '../api/types';
import { PERMISSION } from '../domain/permissions';
import { localDate } from '../domain/users';
import { ActionProblem, useAction } from './action';
import { ConfirmDialog } from './confirm';
import { DeviceTokens } from './device-tokens';
import { PasswordField } from './password-field';
import { PermissionChecks } from './permission-checks';

interface Props {
  user: UserSummary;
  /** The signed-in user is this one (never in open mode). */
  isMe: boolean;
  /** The list changed: read it again. */
  onChanged: () => Promise<void>;
  /** The signed-in user's own account changed: the session learns what is left of it. */
  onOwnAccountChanged: () => Promise<void>;
}

/** One user: permissions, password, removal, and the user's device tokens. Every refusal is the service's words. */
export function UserCard({ user, isMe, onChanged, onOwnAccountChanged }: Props) {
  const titleId = useId();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const removal = useAction();

  const remove = async () => {
    setConfirmDelete(false);
    await removal.act(`delete ${user.username}`, async () => {
      await api.deleteUser(user.username);
      // Our own account gone, the session goes with it: back to the login page rather than reading the list again.
      if (isMe) await onOwnAccountChanged();
      else await onChanged();
    });
  };

  return (
    <li class="card user-card" data-user={user.username}>
      <div class="card-head">
        <h3 id={titleId}>
          {user.username}
          {isMe && <span class="badge tone-active"> you</span>}
        </h3>
        <button type="button" class="ghost danger-text" onClick={() => setConfirmDelete(true)} disabled={removal.busy}>
          Delete user
        </button>
      </div>
      <p class="meta">
        Added <time dateTime={user.created_at}>{localDate(user.created_at)}</time>
      </p>
      <ActionProblem problem={removal.problem} />
      <PermissionsForm user={user} isMe={isMe} onChanged={onChanged} onOwnAccountChanged={onOwnAccountChanged} />
      <PasswordForm user={user} isMe={isMe} onOwnAccountChanged={onOwnAccountChanged} />
      <DeviceTokens user={user} />
      <ConfirmDialog
        open={confirmDelete}
        title={`Delete ${user.username}?`}
        confirmLabel="Delete user"
        onConfirm={() => void remove()}
        onCancel={() => setConfirmDelete(false)}
      >
        <p>Its device tokens stop working at once.</p>
        {isMe && <p class="warning-text">This is you: you will be signed out.</p>}
      </ConfirmDialog>
    </li>
  );
}

function PermissionsForm({ user, isMe, onChanged, onOwnAccountChanged }: Props) {
  const [bits, setBits] = useState(user.permissions);
  const [error, setError] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setBits(user.permissions), [user.permissions]);

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setStatus('');
    try {
      await api.changeUser(user.username, { permissions: bits });
      setError(undefined);
      setStatus('Saved.');
      // Without admin the list is no longer ours to read: the session's fresh token shows why instead.
      if (!(isMe && (bits & PERMISSION.admin) === 0)) await onChanged();
      if (isMe) await onOwnAccountChanged();
    } catch (failure) {
      const errors = fieldErrors(failure);
      setError(errors.permissions ?? errors._form);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="user-permissions" onSubmit={save} aria-label={`Permissions of ${user.username}`}>
      <PermissionChecks value={bits} onValue={setBits} disabled={busy} error={error} />
      <div class="actions">
        <button type="submit" disabled={busy || bits === user.permissions}>
          Save permissions
        </button>
        <span class="status" role="status">
          {status}
        </span>
      </div>
    </form>
  );
}

function PasswordForm({ user, isMe, onOwnAccountChanged }: Pick<Props, 'user' | 'isMe' | 'onOwnAccountChanged'>) {
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setStatus('');
    try {
      await api.changeUser(user.username, { password });
      setErrors({});
      setPassword('');
      setStatus('Password set: its sessions ended, its device tokens keep working.');
      // A new password ends the sessions of the old one, this page's too when it is ours.
      if (isMe) await onOwnAccountChanged();
    } catch (failure) {
      setErrors(fieldErrors(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="user-password" onSubmit={save} aria-label={`Password of ${user.username}`}>
      <PasswordField
        label="New password"
        name="password"
        errors={errors}
        value={password}
        onValue={setPassword}
        disabled={busy}
        hint={isMe ? 'You will sign in again with it.' : 'At least 8 characters.'}
      />
      <div class="actions">
        <button type="submit" class="ghost" disabled={busy || password === ''}>
          Set password
        </button>
        <span class="status" role="status">
          {status}
        </span>
      </div>
      {errors._form && (
        <p class="error" role="alert">
          {errors._form}
        </p>
      )}
    </form>
  );
}
