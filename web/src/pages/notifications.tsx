import { useEffect, useState } from 'preact/hooks';
import { type FieldErrors, fieldErrors } from '../api/errors';
import { type ChannelType, type NotificationChannel, notificationsApi, type TestResult } from '../api/notifications';
import { CheckField, FormActions, FormError, SelectField, TextField } from '../components/fields';
import { PasswordField } from '../components/password-field';

/** Each type's fields: plain ones are shown back, secrets never (a secret left empty is kept). */
const TYPES: Record<ChannelType, { label: string; plain: [string, string, string?][]; secrets: [string, string][] }> = {
  ntfy: {
    label: 'ntfy',
    plain: [
      ['url', 'Server URL', 'e.g. https://ntfy.sh or your own server'],
      ['topic', 'Topic', 'The topic the ntfy app on the phone subscribes to'],
    ],
    secrets: [['token', 'Access token (optional)']],
  },
  telegram: { label: 'Telegram', plain: [['chat_id', 'Chat id', 'A number, or @channelname']], secrets: [['bot_token', 'Bot token']] },
  pushover: {
    label: 'Pushover',
    plain: [],
    secrets: [
      ['app_token', 'Application token'],
      ['user_key', 'User or group key'],
    ],
  },
  email: { label: 'Email', plain: [['to', 'To', 'One or more addresses, separated by commas']], secrets: [] },
  webhook: { label: 'Webhook', plain: [['url', 'URL', 'Gets each message as a JSON POST']], secrets: [] },
};

interface Props {
  /** The token may manage notifications (always in open mode). */
  allowed: boolean;
}

/** Notifications (docs/notifications.md): the channels alerts go out on, each with a Test button. */
export function NotificationsPage({ allowed }: Props) {
  if (!allowed) {
    return (
      <p class="card" role="note">
        Setting up notifications needs the <strong>admin</strong> permission: ask an administrator.
      </p>
    );
  }
  return <Channels />;
}

function Channels() {
  const [channels, setChannels] = useState<NotificationChannel[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [editing, setEditing] = useState<NotificationChannel | null>(null);
  // A new form (empty fields) after each save.
  const [saves, setSaves] = useState(0);
  const read = async () => {
    try {
      setChannels(await notificationsApi.channels());
      setFailure(null);
    } catch (error) {
      setFailure((error as Error).message);
    }
  };
  useEffect(() => void read(), []);

  return (
    <div class="notifications-page" data-loaded={channels ? '' : undefined}>
      <p class="muted">
        Alerts go out on these channels. A critical alert nobody acknowledges is sent again after 5, 15 and 60 minutes, then hourly, and
        after 30 minutes also to the channels marked for escalation. Quiet hours hold warnings, never critical alerts.
      </p>
      {failure && (
        <p class="error" role="alert">
          Could not read the channels: {failure}
        </p>
      )}
      <section aria-labelledby="channels-heading">
        <h2 id="channels-heading">Channels</h2>
        {channels && channels.length === 0 && <p class="muted">No channel yet: alerts reach nobody outside the dashboard.</p>}
        {channels && (
          <ul class="channel-list">
            {channels.map((channel) => (
              <ChannelCard key={channel.channel_id} channel={channel} onEdit={() => setEditing(channel)} onChanged={read} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="channel-form-heading">
        <h2 id="channel-form-heading">{editing ? `Edit “${editing.name}”` : 'Add a channel'}</h2>
        <ChannelForm
          key={`${editing?.channel_id ?? 'new'}-${saves}`}
          channel={editing}
          onDone={async () => {
            setEditing(null);
            setSaves(saves + 1);
            await read();
          }}
          onCancel={editing ? () => setEditing(null) : undefined}
        />
      </section>
    </div>
  );
}

function ChannelCard({ channel, onEdit, onChanged }: { channel: NotificationChannel; onEdit: () => void; onChanged: () => Promise<void> }) {
  const [result, setResult] = useState<TestResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const where = channel.url ?? channel.to ?? (channel.chat_id ? `chat ${channel.chat_id}` : '');
  const test = async () => {
    setBusy(true);
    setResult(null);
    setProblem('');
    try {
      setResult(await notificationsApi.test(channel.channel_id));
      await onChanged();
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!window.confirm(`Remove the channel “${channel.name}”? Messages still waiting for it are dropped.`)) return;
    try {
      await notificationsApi.remove(channel.channel_id);
      await onChanged();
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  return (
    <li class="card channel" data-channel={channel.channel_id}>
      <h3>
        {channel.name} <span class="muted">({TYPES[channel.type]?.label ?? channel.type})</span>
      </h3>
      <dl class="channel-facts">
        {where && (
          <>
            <dt>To</dt>
            <dd>
              {where}
              {channel.topic ? ` / ${channel.topic}` : ''}
            </dd>
          </>
        )}
        <dt>Sends</dt>
        <dd>{channel.min_severity === 'critical' ? 'critical alerts only' : 'warnings and critical alerts'}</dd>
        <dt>Tanks</dt>
        <dd>{channel.prototype_ids ? channel.prototype_ids.map((id) => `#${id}`).join(', ') : 'all'}</dd>
        <dt>Quiet hours</dt>
        <dd>{channel.quiet ? `${channel.quiet.from}–${channel.quiet.to}` : 'none'}</dd>
        {channel.escalation && (
          <>
            <dt>Escalation</dt>
            <dd>only alerts nobody answered</dd>
          </>
        )}
        {channel.secrets_set.length > 0 && (
          <>
            <dt>Secrets</dt>
            <dd>{channel.secrets_set.join(', ')} set (never shown)</dd>
          </>
        )}
      </dl>
      {channel.failing_since && (
        <p class="error" role="note">
          Failing since {new Date(channel.failing_since).toLocaleString()}.
        </p>
      )}
      <div class="actions">
        <button type="button" onClick={test} disabled={busy}>
          Test
        </button>
        <button type="button" class="secondary" onClick={onEdit}>
          Edit
        </button>
        <button type="button" class="secondary danger" onClick={remove}>
          Remove
        </button>
      </div>
      <div role="status" class="test-result">
        {busy && 'Sending a test message…'}
        {result && (
          <p class={result.ok ? 'ok' : 'error'}>
            {result.ok ? 'Delivered' : 'Not delivered'}: the far end answered {result.status || 'nothing'}
            {result.detail && (
              <>
                {' '}
                <code>{result.detail}</code>
              </>
            )}
          </p>
        )}
        {problem && <p class="error">{problem}</p>}
      </div>
    </li>
  );
}

function ChannelForm({
  channel,
  onDone,
  onCancel,
}: {
  channel: NotificationChannel | null;
  onDone: () => Promise<void>;
  onCancel?: () => void;
}) {
  const [type, setType] = useState<ChannelType>(channel?.type ?? 'ntfy');
  const [name, setName] = useState(channel?.name ?? '');
  const [values, setValues] = useState<Record<string, string>>({
    url: channel?.url ?? '',
    topic: channel?.topic ?? '',
    chat_id: channel?.chat_id ?? '',
    to: channel?.to ?? '',
  });
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [critical, setCritical] = useState(channel?.min_severity === 'critical');
  const [escalation, setEscalation] = useState(channel?.escalation ?? false);
  const [quietFrom, setQuietFrom] = useState(channel?.quiet?.from ?? '');
  const [quietTo, setQuietTo] = useState(channel?.quiet?.to ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const spec = TYPES[type];

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setStatus('');
    const body: Record<string, unknown> = {
      type,
      name: name.trim() === '' ? null : name,
      min_severity: critical ? 'critical' : 'warning',
      escalation,
      quiet: quietFrom === '' && quietTo === '' ? null : { from: quietFrom, to: quietTo },
    };
    for (const [field] of spec.plain) body[field] = values[field];
    // A secret left empty is kept as it is.
    for (const [field] of spec.secrets) if (secrets[field]) body[field] = secrets[field];
    try {
      const saved = channel ? await notificationsApi.change(channel.channel_id, body) : await notificationsApi.add(body);
      setErrors({});
      setSecrets({});
      setStatus(`Saved ${saved.name}.`);
      await onDone();
    } catch (failure) {
      setErrors(fieldErrors(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card form channel-form" onSubmit={save} aria-label={channel ? 'Edit the channel' : 'Add a channel'}>
      <div class="grid">
        <SelectField
          label="Type"
          name="type"
          errors={errors}
          value={type}
          options={(Object.keys(TYPES) as ChannelType[]).map((value) => ({ value, label: TYPES[value].label }))}
          onValue={setType}
          disabled={busy}
        />
        <TextField label="Name" name="name" errors={errors} value={name} onValue={setName} disabled={busy} hint="e.g. Anna’s phone" />
        {spec.plain.map(([field, label, hint]) => (
          <TextField
            key={`${type}-${field}`}
            label={label}
            name={field}
            errors={errors}
            value={values[field] ?? ''}
            onValue={(value) => setValues({ ...values, [field]: value })}
            disabled={busy}
            hint={hint}
          />
        ))}
        {spec.secrets.map(([field, label]) => (
          <PasswordField
            key={`${type}-${field}`}
            label={label}
            name={field}
            errors={errors}
            value={secrets[field] ?? ''}
            onValue={(value) => setSecrets({ ...secrets, [field]: value })}
            disabled={busy}
            hint={
              channel?.type === type && channel.secrets_set.includes(field)
                ? 'Set. Leave empty to keep it.'
                : 'Never shown again once saved.'
            }
          />
        ))}
        <TextField
          label="Quiet from"
          name="quiet"
          errors={errors}
          value={quietFrom}
          onValue={setQuietFrom}
          disabled={busy}
          hint="HH:MM; warnings wait until the end"
        />
        <TextField label="Quiet until" name="quiet-to" errors={errors} value={quietTo} onValue={setQuietTo} disabled={busy} hint="HH:MM" />
      </div>
      <CheckField label="Critical alerts only" name="min_severity" checked={critical} onValue={setCritical} disabled={busy} />
      <CheckField
        label="Escalation: only alerts nobody acknowledged for 30 minutes"
        name="escalation"
        checked={escalation}
        onValue={setEscalation}
        disabled={busy}
      />
      <FormError errors={errors} names={['_form', 'prototype_ids']} />
      <FormActions submit={channel ? 'Save channel' : 'Add channel'} disabled={busy} status={status}>
        {onCancel && (
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </FormActions>
    </form>
  );
}
