import type { Config } from '../config/index.js';

/**
 * A webhook URL as the dashboard may show it: where it goes, never what unlocks it. Credentials
 * hide in the userinfo, the query and, for Slack, Discord and most chat hooks, the path itself,
 * so only the scheme, host and port are kept, with `/…` standing for whatever followed.
 */
export function maskedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const hidden = parsed.username || parsed.password ? '…@' : '';
    const rest = parsed.pathname !== '/' || parsed.search || parsed.hash ? '/…' : '';
    return `${parsed.protocol}//${hidden}${parsed.host}${rest}`;
  } catch {
    return '(not a URL)';
  }
}

export type PublicSettingsConfig = Pick<Config, 'authMode' | 'staleAfterMs' | 'mqtt' | 'alertWebhookUrls' | 'pictureSource'>;

/** What the dashboard is told about the service's settings beside the optional parts it has: nothing secret. */
export function publicSettings(config: PublicSettingsConfig) {
  return {
    auth_mode: config.authMode,
    stale_after_seconds: config.staleAfterMs / 1000,
    /** Devices publish under this prefix; null when the service does not join a broker. */
    mqtt_prefix: config.mqtt?.prefix ?? null,
    alert_webhooks: config.alertWebhookUrls.map(maskedUrl),
    /** False: the camera page can only show an uploaded picture (PICTURE_SOURCE unset). */
    picture_source_set: config.pictureSource !== undefined,
  };
}
