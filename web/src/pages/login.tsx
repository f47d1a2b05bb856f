import { useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { ApiError } from '../api/errors';

/** AUTH_MODE=enforced: the OAuth2 password form of `POST /token`. */
export function LoginPage({ onToken }: { onToken: (token: string) => void }) {
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
    <main id="main" class="login">
      <form class="card login-card" onSubmit={submit}>
        <h1>
          <span class="logo" aria-hidden="true">
            ◉
          </span>{' '}
          sensorhub
        </h1>
        <p class="muted">Sign in to see and change your prototypes.</p>
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
    </main>
  );
}
