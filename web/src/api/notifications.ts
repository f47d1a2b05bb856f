import { send, sendJson } from './client';

/** A notification channel as the service shows it: never a secret, only which are set. */
export interface NotificationChannel {
  channel_id: number;
  type: ChannelType;
  name: string;
  min_severity: 'warning' | 'critical';
  prototype_ids: number[] | null;
  quiet: { from: string; to: string } | null;
  escalation: boolean;
  to?: string;
  url?: string;
  topic?: string;
  chat_id?: string;
  secrets_set: string[];
  failing_since: string | null;
  created_at: string;
}

export type ChannelType = 'ntfy' | 'telegram' | 'pushover' | 'email' | 'webhook';

export interface TestResult {
  ok: boolean;
  status: number;
  detail: string;
}

const path = (id: number) => `/notifications/channels/${id}`;

export const notificationsApi = {
  channels: () => sendJson<NotificationChannel[]>('GET', '/notifications/channels'),
  add: (body: Record<string, unknown>) => sendJson<NotificationChannel>('POST', '/notifications/channels', { json: body }),
  change: (id: number, body: Record<string, unknown>) => sendJson<NotificationChannel>('PATCH', path(id), { json: body }),
  remove: async (id: number): Promise<void> => {
    await send('DELETE', path(id));
  },
  test: (id: number) => sendJson<TestResult>('POST', `${path(id)}/test`),
};
