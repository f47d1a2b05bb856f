import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { type FieldErrors, fieldErrors } from '../api/errors';
import type { UserSummary } from '../api/types';
import { FormActions, FormError, TextField } from '../components/fields';
import { PasswordField } from '../components/password-field';
import { PermissionChecks } from '../components/permission-checks';
import { UserCard } from '../components/user-card';
import { PERMISSION } from '../domain/permissions';
import { devicePassword } from '../domain/users';

interface Props {
  /** The token may manage users (in open mode the page says how users are made instead). */
  allowed: boolean;
  /** AUTH_MODE=open: no one needs a token yet, and the service refuses user administration over HTTP. */
  open: boolean;
  /** The signed-in username (null in open mode). */
  me: string | null;
  onOwnAccountChanged: () => Promise<void>;
}

/**
 * Users & devices (docs/api.md §6.1): the people who sign in and the users devices act as, their
 * permissions, and the device tokens made for them. Needs `admin` in enforced mode.
 */
export function UsersPage({ allowed, open, me, onOwnAccountChanged }: Props) {
  // Anyone can reach an open service: users and tokens made over it would outlive the switch to
  // enforced, so the service refuses, and the page says what to do instead.
  if (open) return <OpenAccess />;
  if (!allowed) {
    return (
      <p class="card" role="note">
        Managing users and devices needs the <strong>admin</strong> permission: ask an administrator.
      </p>
    );
  }
  return <Users me={me} onOwnAccountChanged={onOwnAccountChanged} />;
}

function OpenAccess() {
  return (
    <div class="users-page" data-loaded="">
      <p class="card" role="note">
        Access is open, so devices need no token yet, and users and device tokens cannot be managed here: anyone on the network could make
        an administrator. Make them on the machine with the command line (
        <code>sensorhub users add NAME --permissions read,modify,admin</code>, <code>sensorhub users token NAME --days 365</code>), then run
        the service with <code>AUTH_MODE=enforced</code> and manage them from this page.
      </p>
    </div>
  );
}

function Users({ me, onOwnAccountChanged }: Pick<Props, 'me' | 'onOwnAccountChanged'>) {
  const [users, setUsers] = useState<UserSummary[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const read = async () => {
    try {
      setUsers(await api.users());
      setFailure(null);
    } catch (error) {
      setFailure((error as Error).message);
    }
  };
  useEffect(() => void read(), []);

  return (
    <div class="users-page" data-loaded={users ? '' : undefined}>
      <p class="users-intro muted">
        People sign in with a password. A device (a sensor board, a pump controller) uses a <em>device token</em> made for a user: it can do
        what that user could when it was made, never more than the user still may, and it keeps working after a logout until it expires or
        is revoked.
      </p>
      {failure && (
        <p class="error" role="alert">
          Could not read the users: {failure}
        </p>
      )}
      <section aria-labelledby="users-heading">
        <h2 id="users-heading">Users</h2>
        {users && (
          <ul class="user-list">
            {users.map((user) => (
              <UserCard
                key={user.username}
                user={user}
                isMe={user.username === me}
                onChanged={read}
                onOwnAccountChanged={onOwnAccountChanged}
              />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="add-user-heading">
        <h2 id="add-user-heading">Add a user</h2>
        <AddUserForm onAdded={read} />
      </section>
    </div>
  );
}

function AddUserForm({ onAdded }: { onAdded: () => Promise<void> }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [permissions, setPermissions] = useState<number>(PERMISSION.read);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const add = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setStatus('');
    try {
      // A device never signs in with a password: left empty, it gets a random one no one sees.
      const added = await api.addUser({ username, password: password === '' ? devicePassword() : password, permissions });
      setErrors({});
      setUsername('');
      setPassword('');
      setPermissions(PERMISSION.read);
      setStatus(`Added ${added.username}.`);
      await onAdded();
    } catch (failure) {
      setErrors(fieldErrors(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card form add-user" onSubmit={add} aria-label="Add a user">
      <div class="grid">
        <TextField label="Username" name="username" errors={errors} value={username} onValue={setUsername} disabled={busy} />
        <PasswordField
          label="Password"
          name="password"
          errors={errors}
          value={password}
          onValue={setPassword}
          disabled={busy}
          hint="At least 8 characters. For a device, leave it empty: it uses a device token instead."
        />
      </div>
      <PermissionChecks value={permissions} onValue={setPermissions} disabled={busy} explained error={errors.permissions} />
      <p class="muted hint">
        A sensor board needs only <em>post measurements</em>, a pump controller only <em>control</em>.
      </p>
      <FormError errors={errors} names={['_form']} />
      <FormActions submit="Add user" disabled={busy} status={status} />
    </form>
  );
}
