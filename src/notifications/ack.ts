import type { Alert } from '../domain/alert.js';
import type { Store } from '../store/index.js';
import type { LinkSigner } from './links.js';

export interface AckPage {
  status: number;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title>
<style>body{font:1.1rem/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#111;background:#fff}
h1{font-size:1.4rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}
button{font:inherit;font-size:1.2rem;padding:.8rem 1.6rem;border-radius:.5rem;border:2px solid #0b5;background:#0b5;color:#fff;cursor:pointer;min-height:48px}
button:focus-visible{outline:3px solid #036;outline-offset:2px}</style></head>
<body><main>${body}</main></body></html>`;
}

function alertFacts(alert: Alert): string {
  const rows: [string, string][] = [
    ['Alert', `#${alert.alert_id} ${alert.kind} (${alert.severity})`],
    ['State', alert.state],
    ['Raised', alert.raised_at],
    ['Value', alert.last_value === null ? '–' : String(alert.last_value)],
    [
      'Acknowledged',
      alert.acknowledged_at ? `${alert.acknowledged_at}${alert.acknowledged_by ? ` by ${alert.acknowledged_by}` : ''}` : 'not yet',
    ],
  ];
  return `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
}

export interface AckDeps {
  store: Store;
  links: LinkSigner;
  now: () => number;
  alerts: {
    get(alertId: number): Promise<Alert>;
    acknowledge(alertId: number, username: string | null): Promise<Alert>;
  };
}

/**
 * The acknowledge links. A GET only shows the alert and a button (mail scanners and link
 * previews open links: they must not acknowledge); the button's POST acknowledges, once,
 * recorded as "via link from <channel>". A link the service did not sign answers 404, an expired or used one 410.
 */
export function ackLinks({ store, links, now, alerts }: AckDeps) {
  const refused = (status: number, title: string, text: string): AckPage => ({
    status,
    html: page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`),
  });
  const forged = () => refused(404, 'Not a valid link', 'This acknowledge link is not one the service made. Open the dashboard instead.');
  const expired = () => refused(410, 'This link has expired', 'Acknowledge the alert in the dashboard instead.');
  const used = () => refused(410, 'This link was already used', 'Each acknowledge link works once. The alert’s state is in the dashboard.');

  async function alertOf(alertId: number): Promise<Alert | undefined> {
    try {
      return await alerts.get(alertId);
    } catch {
      return undefined;
    }
  }

  return {
    async show(token: string): Promise<AckPage> {
      const check = links.check(token, now());
      if (!check.ok) return check.reason === 'forged' ? forged() : expired();
      if (await store.notifications.linkUsed(check.claim.nonce)) return used();
      const alert = await alertOf(check.claim.alert_id);
      if (!alert) return refused(404, 'Alert not found', 'The alert this link was about no longer exists.');
      return {
        status: 200,
        html: page(
          'Acknowledge alert',
          `<h1>Acknowledge alert #${alert.alert_id}?</h1>${alertFacts(alert)}
<form method="post"><button type="submit">Acknowledge</button></form>
<p>Acknowledging stops the reminders. It does not change what the safety rules do.</p>`,
        ),
      };
    },

    async use(token: string): Promise<AckPage> {
      const check = links.check(token, now());
      if (!check.ok) return check.reason === 'forged' ? forged() : expired();
      const alert = await alertOf(check.claim.alert_id);
      if (!alert) return refused(404, 'Alert not found', 'The alert this link was about no longer exists.');
      if (!(await store.notifications.useLink(check.claim.nonce, now()))) return used();
      const channel = await store.notifications.channel(check.claim.channel_id);
      const by = `via link from ${channel ? channel.name : `channel #${check.claim.channel_id}`}`;
      const after = await alerts.acknowledge(check.claim.alert_id, by);
      return {
        status: 200,
        html: page('Acknowledged', `<h1>Acknowledged</h1>${alertFacts(after)}<p>The reminders for this alert have stopped.</p>`),
      };
    },
  };
}

export type AckLinks = ReturnType<typeof ackLinks>;
