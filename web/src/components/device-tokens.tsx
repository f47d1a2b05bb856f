import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { type FieldErrors, fieldErrors } from '../api/errors';
import type { CreatedDeviceToken, DeviceToken, Prototype, UserSummary } from '../api/types';
import { PERMISSION } from '../domain/permissions';
import { DEVICE_TOKEN_DAYS, localDate, localDateTime, permissionWords, riskyForDevice, tokenExpired } from '../domain/users';
import { ActionProblem, useAction } from './action';
import { ConfirmDialog } from './confirm';
import { CopyLine } from './copy';
import { FormError, SelectField, TextField } from './fields';

/** A user's device tokens (docs/api.md §6.1): listed without their secret, made one at a time, revoked one at a time. */
export function DeviceTokens({ user }: { user: UserSummary }) {
  const prototypes = useTanks();
  const [tokens, setTokens] = useState<DeviceToken[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<DeviceToken | null>(null);
  const { busy, problem, act } = useAction();
  const headingId = useId();

  const read = () =>
    api.deviceTokens(user.username).then(
      (listed) => {
        setTokens(listed);
        setFailure(null);
      },
      (error: Error) => setFailure(error.message),
    );
  useEffect(() => void read(), [user.username]);

  const revoke = async () => {
    const token = revoking;
    setRevoking(null);
    if (!token) return;
    await act(`revoke ${token.name}`, async () => {
      await api.revokeDeviceToken(token.token_id);
      await read();
    });
  };

  const now = Date.now();
  return (
    <section class="device-tokens" aria-labelledby={headingId}>
      <h4 id={headingId}>Device tokens</h4>
      {failure && (
        <p class="error" role="alert">
          Could not read the device tokens: {failure}
        </p>
      )}
      {tokens?.length === 0 && <p class="muted no-tokens">No device token yet.</p>}
      {tokens && tokens.length > 0 && (
        <ul class="token-list">
          {tokens.map((token) => (
            <li key={token.token_id} class="token" data-token-id={token.token_id}>
              <div class="token-name">
                <strong>{token.name}</strong>
                {tokenExpired(token.expires_at, now) && <span class="badge tone-critical">expired</span>}
              </div>
              <dl class="token-facts">
                <div>
                  <dt>Created</dt>
                  <dd>
                    <time dateTime={token.created_at}>{localDate(token.created_at)}</time>
                  </dd>
                </div>
                <div>
                  <dt>Expires</dt>
                  <dd>
                    <time dateTime={token.expires_at}>{localDate(token.expires_at)}</time>
                  </dd>
                </div>
                <div>
                  <dt>Tanks</dt>
                  <dd data-tanks={token.prototype_ids === null ? 'all' : token.prototype_ids.join(',')}>
                    {tankWords(token.prototype_ids, prototypes)}
                  </dd>
                </div>
                <div>
                  <dt>Last used</dt>
                  <dd data-last-used={token.last_used_at ?? 'never'}>
                    {token.last_used_at ? <time dateTime={token.last_used_at}>{localDateTime(token.last_used_at)}</time> : 'never'}
                  </dd>
                </div>
              </dl>
              <button
                type="button"
                class="ghost danger-text"
                disabled={busy}
                onClick={() => setRevoking(token)}
                aria-label={`Revoke ${token.name}`}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      <ActionProblem problem={problem} />
      <NewDeviceTokenButton user={user} onClosed={() => void read()} />
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? 'the token'}?`}
        confirmLabel="Revoke"
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      >
        <p>The device using it is refused from its next request. A revoked token cannot be restored: the device would need a new one.</p>
      </ConfirmDialog>
    </section>
  );
}

/** "New device token": a modal with the form, then the token itself, shown this once. */
function NewDeviceTokenButton({ user, onClosed }: { user: UserSummary; onClosed: () => void }) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<CreatedDeviceToken | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  // The token leaves the page's memory with the dialog: it is never shown again.
  const close = () => {
    setOpen(false);
    setCreated(null);
    opener.current?.focus();
    onClosed();
  };
  return (
    <>
      <button type="button" class="ghost" ref={opener} onClick={() => setOpen(true)} aria-label={`New device token for ${user.username}`}>
        New device token
      </button>
      <dialog ref={dialog} class="confirm device-token-dialog" aria-labelledby={`${id}-title`} onCancel={close}>
        <h2 id={`${id}-title`}>New device token for {user.username}</h2>
        {open && !created && <NewDeviceTokenForm user={user} onCreated={setCreated} onCancel={close} />}
        {created && <TokenShownOnce user={user} token={created} onDone={close} />}
      </dialog>
    </>
  );
}

function NewDeviceTokenForm({
  user,
  onCreated,
  onCancel,
}: {
  user: UserSummary;
  onCreated: (token: CreatedDeviceToken) => void;
  onCancel: () => void;
}) {
  const prototypes = useTanks();
  const [name, setName] = useState('');
  const [days, setDays] = useState(String(DEVICE_TOKEN_DAYS));
  // A device usually serves one tank: the tank on screen by default, so it reaches no other.
  // Every tank unless the grower picks one (a device that serves one tank should reach no other).
  const [tank, setTank] = useState<number | 'all'>('all');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      // The service judges the values and says what is wrong (what is not a number goes as null).
      onCreated(
        await api.issueDeviceToken(user.username, { name: name.trim(), days: Number(days), prototype_ids: tank === 'all' ? null : [tank] }),
      );
    } catch (error) {
      setErrors(fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="new-device-token" onSubmit={create} aria-label={`New device token for ${user.username}`}>
      <p>
        It acts as <strong>{user.username}</strong>, with {permissionWords(user.permissions)}.
      </p>
      {riskyForDevice(user.permissions) && (
        <p class="warning-text">
          A device holding it could also change settings{user.permissions & PERMISSION.admin ? ' and users' : ''}. Give a device a user of
          its own with only what it needs: <em>post measurements</em> for a sensor board, <em>control</em> for a pump controller.
        </p>
      )}
      <TextField
        label="Name"
        name="name"
        errors={errors}
        value={name}
        onValue={setName}
        disabled={busy}
        hint="What it is for, e.g. “pH board, bay 1”"
      />
      <TextField
        label="Valid for (days)"
        name="days"
        inputMode="numeric"
        errors={errors}
        value={days}
        onValue={setDays}
        disabled={busy}
        hint="1 to 3650; you can revoke it any time"
      />
      <SelectField<number | 'all'>
        label="Tank"
        name="prototype_ids"
        errors={errors}
        value={tank}
        options={[
          { value: 'all' as const, label: 'Every tank' },
          ...prototypes.map((p) => ({ value: p.prototype_id, label: p.prototype_name })),
        ]}
        onValue={setTank}
        disabled={busy}
        hint="Pick one tank and the token is refused for every other"
      />
      <FormError errors={errors} names={['_form']} />
      <div class="actions">
        <button type="button" class="ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={busy}>
          Create token
        </button>
      </div>
    </form>
  );
}

function TokenShownOnce({ user, token, onDone }: { user: UserSummary; token: CreatedDeviceToken; onDone: () => void }) {
  const warning = useRef<HTMLParagraphElement>(null);
  useEffect(() => warning.current?.focus(), []);
  return (
    <div class="token-once" data-token-once={token.token_id}>
      <p class="token-warning" ref={warning} tabIndex={-1}>
        <strong>Copy it now: it is shown only this once.</strong> Whoever has it acts as {user.username} (
        {permissionWords(user.permissions)}) until {localDate(token.expires_at)}, or until you revoke it.
      </p>
      <CopyLine label={`Device token “${token.name}”`} text={token.access_token} />
      <p class="muted">
        The device sends it with every request: <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>
      <div class="actions">
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/** The tanks a token reaches, by name. */
function tankWords(ids: readonly number[] | null, prototypes: readonly { prototype_id: number; prototype_name: string }[]): string {
  if (ids === null) return 'every tank';
  return ids.map((id) => prototypes.find((p) => p.prototype_id === id)?.prototype_name ?? `#${id}`).join(', ');
}

/** The tanks, read once (the users page stands outside any one tank); none while unread or unreadable. */
function useTanks(): Prototype[] {
  const [tanks, setTanks] = useState<Prototype[]>([]);
  useEffect(() => {
    api.prototypes().then(setTanks, () => setTanks([]));
  }, []);
  return tanks;
}
