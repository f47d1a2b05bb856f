import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { maskedUrl, publicSettings } from '../../src/dashboard/public-settings.js';

describe('maskedUrl', () => {
  it('keeps where a webhook goes and hides userinfo, path, query and fragment', () => {
    expect(maskedUrl('https://alerts.example.org')).toBe('https://alerts.example.org');
    expect(maskedUrl('https://user:secret@alerts.example.org:8443/hook?token=abc')).toBe('https://…@alerts.example.org:8443/…');
    expect(maskedUrl('https://hooks.slack.com/services/T0/B0/XXXXSECRET')).toBe('https://hooks.slack.com/…');
    expect(maskedUrl('http://10.0.0.5/?key=1')).toBe('http://10.0.0.5/…');
    expect(maskedUrl('not a url')).toBe('(not a URL)');
  });
});

describe('publicSettings', () => {
  it('names the MQTT prefix only when the service joins a broker, and never a secret', () => {
    const off = publicSettings(loadConfig({}));
    expect(off).toMatchObject({ mqtt_prefix: null, alert_webhooks: [], picture_source_set: false });
    const on = publicSettings(
      loadConfig({
        MQTT_URL: 'mqtt://device:pw@127.0.0.1:1883',
        MQTT_TOPIC_PREFIX: 'farm',
        ALERT_WEBHOOK_URLS: 'https://u:p@hooks.example.org/x?sig=1',
        PICTURE_SOURCE: 'http://cam.local/capture',
      }),
    );
    expect(on).toMatchObject({ mqtt_prefix: 'farm', alert_webhooks: ['https://…@hooks.example.org/…'], picture_source_set: true });
    expect(JSON.stringify(on)).not.toMatch(/pw|sig=|u:p/);
  });
});
