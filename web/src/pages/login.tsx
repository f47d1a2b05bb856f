import { useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { ApiError, type FieldErrors, fieldErrors } from '../api/errors';
import { FormError, TextField } from '../components/fields';
import { PasswordField } from '../components/password-field';
import { newPasswordProblems } from '../domain/users';

interface Props {
  /** Enforced mode and no user yet: offer to create the first administrator instead of signing in. */
  needsFirstAdmin: boolean;
  /** Why the grower is back here (the service ended the session), or null. */
  notice: string | null;
  /** Someone created the first administrator (here or elsewhere): never offer it again. */
  onFirstAdminExists: () => void;
  onToken: (token: string) => void;
}

/** AUTH_MODE=enforced: the OAuth2 password form of `POST /token`, or the first administrator while there is no user. */
export function LoginPage({ needsFirstAdmin, notice, onFirstAdminExists, onToken }: Props) {
  const [taken, setTaken] = useState(false);
  return (
    <main id="main" class="login">
      <div class="card login-card">
        <h1>
          <span class="logo" aria-hidden="true">
            ◉
          </span>{' '}
          sensorhub
        </h1>
        {notice && !needsFirstAdmin && (
          <p class="signed-out" role="status">
            {notice}
          </p>
        )}
        {needsFirstAdmin ? (
          <FirstAdminForm
            onToken={onToken}
            onTaken={() => {
              setTaken(true);
              onFirstAdminExists();
            }}
          />
        ) : (
          <SignInForm onToken={onToken} taken={taken} />
        )}
      </div>
    </main>
  );
}

function SignInForm({ onToken, taken }: { onToken: (token: string) => void; taken: boolean }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const reply = await api.login(username, password);
      onToken(reply.access_token);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The service did not answer.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="login-form" onSubmit={submit} aria-label="Sign in">
      <p class="muted">
        {taken ? 'An administrator was created meanwhile, from another browser: sign in.' : 'Sign in to see and look after your tanks.'}
      </p>
      <label class="field">
        <span>Username</span>
        <input name="username" autoComplete="username" required value={username} onInput={(e) => setUsername(e.currentTarget.value)} />
      </label>
      <label class="field">
        <span>Password</span>
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </label>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}

/**
 * `POST /users/new/` while the store has no user: the service makes that first user an
 * administrator with every permission and answers with its token, which signs the grower in.
 */
function FirstAdminForm({ onToken, onTaken }: { onToken: (token: string) => void; onTaken: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const problems = newPasswordProblems(password, again);
    if (Object.keys(problems).length > 0) return setErrors(problems);
    setBusy(true);
    try {
      const reply = await api.createFirstAdmin(username, password);
      onToken(reply.access_token);
    } catch (failure) {
      // 401: a user exists now (made from another browser), so only signing in is left.
      if (failure instanceof ApiError && failure.status === 401) return onTaken();
      setErrors(failure instanceof ApiError ? fieldErrors(failure) : { _form: 'The service did not answer.' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="login-form" onSubmit={submit} aria-labelledby="first-admin-title">
      <h2 id="first-admin-title">Create the first administrator</h2>
      <p class="muted">
        No one can sign in yet. This first account gets every permission: with it you add the other people and the devices (Users &amp;
        devices).
      </p>
      <TextField label="Username" name="username" errors={errors} value={username} onValue={setUsername} hint="1 to 64 characters" />
      <PasswordField label="Password" name="password" errors={errors} value={password} onValue={setPassword} hint="At least 8 characters" />
      <PasswordField label="Password again" name="password_again" errors={errors} value={again} onValue={setAgain} />
      <FormError errors={errors} names={['_form']} />
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Create administrator and sign in'}
      </button>
    </form>
  );
}
