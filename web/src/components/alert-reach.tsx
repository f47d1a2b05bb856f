import { useState } from 'preact/hooks';
import { useDashboard } from '../context';

/** Where alerts go beyond this page: this browser's notifications and the service's webhooks, said in words. */
export function AlertReach() {
  const { settings } = useDashboard();
  const webhooks = settings.alert_webhooks ?? [];
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  const ask = async () => setPermission(await Notification.requestPermission());
  return (
    <section class="card alert-reach" aria-labelledby="alert-reach">
      <h2 id="alert-reach">Where alerts go</h2>
      <p data-notifications={permission}>
        {!supported
          ? 'This browser cannot show notifications.'
          : permission === 'granted'
            ? 'This browser shows a notification for each new critical alert while the dashboard is open.'
            : permission === 'denied'
              ? 'Notifications are blocked for this page: allow them in the browser’s site settings.'
              : 'This browser can show a notification for each new critical alert. '}
        {supported && permission === 'default' && (
          <button type="button" class="ghost" onClick={ask}>
            Notify me of critical alerts
          </button>
        )}
      </p>
      {webhooks.length === 0 ? (
        <p data-webhooks="0">
          No webhook: set <code>ALERT_WEBHOOK_URLS</code> to have every alert POSTed to another system (a chat, a phone gateway).
        </p>
      ) : (
        <div data-webhooks={webhooks.length}>
          <p>Every alert is also POSTed to:</p>
          <ul>
            {webhooks.map((url, i) => (
              <li key={i}>
                <code>{url}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
