import { InvalidInput, NotFound, type ValidationIssue } from '../core/errors.js';
import type { ChannelFields, Store, StoredChannel } from '../store/index.js';
import { minutesOf } from './schedule.js';
import type { Sealer } from './seal.js';
import type { OpenChannel } from './senders.js';
import type { NotificationSettings } from '../config/notifications.js';

export const CHANNEL_TYPES = ['email', 'ntfy', 'telegram', 'pushover', 'webhook'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** Each type's plain fields and its secrets (write-only: never read back). */
const FIELDS: Record<ChannelType, { plain: string[]; secrets: string[]; optional: string[] }> = {
  email: { plain: ['to'], secrets: [], optional: [] },
  ntfy: { plain: ['url', 'topic'], secrets: ['token'], optional: ['token'] },
  telegram: { plain: ['chat_id'], secrets: ['bot_token'], optional: [] },
  pushover: { plain: [], secrets: ['app_token', 'user_key'], optional: [] },
  webhook: { plain: ['url'], secrets: [], optional: [] },
};

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** A rule per field: the message when the value breaks it, undefined when it is fine. */
const RULES: Record<string, (v: string) => string | undefined> = {
  to: (v) =>
    v.split(',').every((a) => /^[^\s@,<>]+@[^\s@,<>]+$/.test(a.trim())) && v.length <= 1000
      ? undefined
      : 'expected one or more email addresses, separated by commas',
  url: (v) => (isHttpUrl(v) && v.length <= 2000 ? undefined : 'expected an http:// or https:// URL'),
  topic: (v) => (/^[-_A-Za-z0-9]{1,64}$/.test(v) ? undefined : 'expected 1 to 64 letters, digits, - or _'),
  token: (v) => (/^[\x21-\x7e]{1,200}$/.test(v) ? undefined : 'expected an access token (printable, no spaces)'),
  chat_id: (v) => (/^(-?\d{1,20}|@[A-Za-z0-9_]{5,64})$/.test(v) ? undefined : 'expected a chat id (a number) or @channelname'),
  bot_token: (v) => (/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/.test(v) ? undefined : 'expected a bot token like 123456:ABC-DEF…'),
  app_token: (v) => (/^[A-Za-z0-9]{20,40}$/.test(v) ? undefined : 'expected an application token (30 letters and digits)'),
  user_key: (v) => (/^[A-Za-z0-9]{20,40}$/.test(v) ? undefined : 'expected a user or group key (30 letters and digits)'),
};

/** A channel as a read shows it: no secret, only the names of those that are set. */
export interface ChannelView {
  channel_id: number;
  type: string;
  name: string;
  min_severity: string;
  prototype_ids: number[] | null;
  quiet: { from: string; to: string } | null;
  escalation: boolean;
  secrets_set: string[];
  failing_since: string | null;
  created_at: string;
  [field: string]: unknown;
}

export function channelView(c: StoredChannel, sealer: Sealer): ChannelView {
  const opened = c.sealed ? sealer.open(c.sealed) : {};
  return {
    channel_id: c.channel_id,
    type: c.type,
    name: c.name,
    min_severity: c.min_severity,
    prototype_ids: c.prototype_ids,
    quiet: c.quiet_from && c.quiet_to ? { from: c.quiet_from, to: c.quiet_to } : null,
    escalation: c.escalation,
    ...c.settings,
    secrets_set: Object.keys(opened ?? {}).sort(),
    failing_since: c.failing_since === null ? null : new Date(c.failing_since).toISOString(),
    created_at: new Date(c.created_at).toISOString(),
  };
}

export function openChannel(c: StoredChannel, sealer: Sealer): OpenChannel {
  return { channel_id: c.channel_id, type: c.type, name: c.name, settings: c.settings, secrets: (c.sealed && sealer.open(c.sealed)) || {} };
}

type Body = Record<string, unknown>;

/**
 * Checks a whole channel (a create, or a change laid over the channel it changes) and answers the
 * fields to store; every problem is reported at once (422), nothing is written.
 */
export function checkChannel(
  body: Body,
  before: { fields: ChannelFields; secrets: Record<string, string> } | undefined,
  settings: Pick<NotificationSettings, 'smtpUrl'>,
): { fields: Omit<ChannelFields, 'sealed'>; secrets: Record<string, string> } {
  const issues: ValidationIssue[] = [];
  const bad = (field: string, msg: string, type = 'value_error') => issues.push({ loc: ['body', field], msg, type });
  const has = (field: string) => Object.hasOwn(body, field);

  const type = (has('type') ? body.type : before?.fields.type) as ChannelType;
  if (!CHANNEL_TYPES.includes(type)) {
    bad('type', `expected one of ${CHANNEL_TYPES.join(', ')}`, has('type') ? 'enum' : 'missing');
    throw new InvalidInput(...issues);
  }
  const typeChanged = before !== undefined && type !== before.fields.type;

  let name = before?.fields.name ?? type;
  if (has('name')) {
    if (body.name === null) name = type;
    else if (typeof body.name === 'string' && body.name.trim().length >= 1 && body.name.trim().length <= 100) name = body.name.trim();
    else bad('name', 'expected a name of 1 to 100 characters');
  }

  let minSeverity = before?.fields.min_severity ?? 'warning';
  if (has('min_severity')) {
    if (body.min_severity === 'warning' || body.min_severity === 'critical') minSeverity = body.min_severity;
    else bad('min_severity', 'expected warning or critical', 'enum');
  }

  let prototypeIds = before?.fields.prototype_ids ?? null;
  if (has('prototype_ids')) {
    const ids = body.prototype_ids;
    if (ids === null) prototypeIds = null;
    else if (
      Array.isArray(ids) &&
      ids.length >= 1 &&
      ids.length <= 1000 &&
      ids.every((id) => Number.isInteger(Number(id)) && Number(id) >= 0 && Number(id) <= 2 ** 31 - 1 && String(id).trim() !== '')
    )
      prototypeIds = [...new Set(ids.map(Number))];
    else bad('prototype_ids', 'expected a list of prototype ids (null or absent: every prototype)');
  }

  let quietFrom = before?.fields.quiet_from ?? null;
  let quietTo = before?.fields.quiet_to ?? null;
  if (has('quiet')) {
    const quiet = body.quiet as Body | null;
    if (quiet === null) quietFrom = quietTo = null;
    else if (typeof quiet !== 'object' || Array.isArray(quiet)) bad('quiet', 'expected {"from": "HH:MM", "to": "HH:MM"} or null');
    else {
      for (const end of ['from', 'to'] as const) {
        if (typeof quiet[end] !== 'string' || minutesOf(quiet[end]) === undefined)
          issues.push({ loc: ['body', 'quiet', end], msg: 'expected a time of day as HH:MM (00:00 to 23:59)', type: 'value_error' });
      }
      quietFrom = String(quiet.from);
      quietTo = String(quiet.to);
    }
  }

  let escalation = before?.fields.escalation ?? false;
  if (has('escalation')) {
    if (typeof body.escalation === 'boolean') escalation = body.escalation;
    else bad('escalation', 'expected true or false', 'bool_type');
  }

  const spec = FIELDS[type];
  const plain: Record<string, string> = {};
  for (const field of spec.plain) {
    const value = has(field) ? body[field] : typeChanged ? undefined : before?.fields.settings[field];
    const text = typeof value === 'number' && field === 'chat_id' ? String(value) : value;
    if (text === undefined || text === null || text === '') bad(field, `required for a ${type} channel`, 'missing');
    else if (typeof text !== 'string') bad(field, 'expected a string', 'string_type');
    else {
      const problem = RULES[field]?.(text.trim());
      if (problem) bad(field, problem);
      else plain[field] = text.trim();
    }
  }
  const secrets: Record<string, string> = {};
  for (const field of spec.secrets) {
    const given = has(field) ? body[field] : undefined;
    if (given === undefined) {
      const kept = typeChanged ? undefined : before?.secrets[field];
      if (kept !== undefined) secrets[field] = kept;
      else if (!spec.optional.includes(field)) bad(field, `required for a ${type} channel`, 'missing');
    } else if (given === null && spec.optional.includes(field)) {
      // Removed.
    } else if (typeof given !== 'string') bad(field, 'expected a string', 'string_type');
    else {
      const problem = RULES[field]?.(given.trim());
      if (problem) bad(field, problem);
      else secrets[field] = given.trim();
    }
  }
  if (type === 'email' && !settings.smtpUrl) bad('type', 'email needs the service’s SMTP_URL, which is not set', 'value_error');

  if (issues.length) throw new InvalidInput(...issues);
  return {
    fields: {
      type,
      name,
      min_severity: minSeverity,
      prototype_ids: prototypeIds,
      quiet_from: quietFrom,
      quiet_to: quietTo,
      escalation,
      settings: plain,
    },
    secrets,
  };
}

/** The channels' CRUD: checked, secrets sealed, prototypes that the body names must exist (404). */
export function channelService(store: Store, sealer: Sealer, settings: NotificationSettings, now: () => number) {
  async function mustExist(ids: number[] | null): Promise<void> {
    for (const id of ids ?? []) {
      if (!(await store.prototypes.exists(id))) throw new NotFound(`Prototype ${id} not found`);
    }
  }
  const sealOf = (secrets: Record<string, string>) => (Object.keys(secrets).length ? sealer.seal(secrets) : null);

  return {
    async list(): Promise<ChannelView[]> {
      return (await store.notifications.channels()).map((c) => channelView(c, sealer));
    },

    async get(channelId: number): Promise<ChannelView> {
      const c = await store.notifications.channel(channelId);
      if (!c) throw new NotFound(`Channel ${channelId} not found`);
      return channelView(c, sealer);
    },

    async create(body: Body): Promise<ChannelView> {
      const { fields, secrets } = checkChannel(body, undefined, settings);
      await mustExist(fields.prototype_ids);
      const c = await store.notifications.addChannel({ ...fields, sealed: sealOf(secrets) }, now());
      return channelView(c, sealer);
    },

    async update(channelId: number, body: Body): Promise<ChannelView> {
      const before = await store.notifications.channel(channelId);
      if (!before) throw new NotFound(`Channel ${channelId} not found`);
      const { fields, secrets } = checkChannel(
        body,
        { fields: before, secrets: (before.sealed && sealer.open(before.sealed)) || {} },
        settings,
      );
      await mustExist(fields.prototype_ids);
      const c = await store.notifications.replaceChannel(channelId, { ...fields, sealed: sealOf(secrets) });
      if (!c) throw new NotFound(`Channel ${channelId} not found`);
      return channelView(c, sealer);
    },

    async remove(channelId: number): Promise<void> {
      const gone = await store.transaction((tx) => tx.notifications.removeChannel(channelId, destinationOf(channelId)));
      if (!gone) throw new NotFound(`Channel ${channelId} not found`);
    },

    async open(channelId: number): Promise<OpenChannel> {
      const c = await store.notifications.channel(channelId);
      if (!c) throw new NotFound(`Channel ${channelId} not found`);
      return openChannel(c, sealer);
    },
  };
}

export type ChannelService = ReturnType<typeof channelService>;

/** The outbox destination of a channel's messages (webhook URLs are the other destinations). */
export const destinationOf = (channelId: number) => `channel:${channelId}`;
export const channelOfDestination = (destination: string) =>
  destination.startsWith('channel:') ? Number(destination.slice('channel:'.length)) : undefined;
