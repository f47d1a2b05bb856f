import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** What an acknowledge link stands for. */
export interface LinkClaim {
  alert_id: number;
  channel_id: number;
  /** When the link stops working (epoch ms). */
  expires: number;
  /** Makes the link single-use: its use is recorded by this. */
  nonce: string;
}

export type LinkCheck = { ok: true; claim: LinkClaim } | { ok: false; reason: 'forged' | 'expired' };

/**
 * Acknowledge links: the claim and an HMAC of it under a key derived from the service's secret,
 * in one URL-safe token. Anyone holding the link may acknowledge that one alert, once, until it
 * expires; nothing else.
 */
export function linkSigner(secret: Uint8Array) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'sensorhub notifications', 'acknowledge links', 32));
  const mac = (body: string) => createHmac('sha256', key).update(body).digest();
  return {
    sign(claim: Omit<LinkClaim, 'nonce'>): string {
      const nonce = randomBytes(12).toString('base64url');
      const body = `${claim.alert_id}.${claim.channel_id}.${claim.expires}.${nonce}`;
      return `${body}.${mac(body).toString('base64url')}`;
    },
    check(token: string, now: number): LinkCheck {
      const match = /^(\d{1,10})\.(\d{1,10})\.(\d{1,15})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return { ok: false, reason: 'forged' };
      const body = token.slice(0, token.lastIndexOf('.'));
      const given = Buffer.from(match[5], 'base64url');
      const expected = mac(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'forged' };
      const claim = { alert_id: Number(match[1]), channel_id: Number(match[2]), expires: Number(match[3]), nonce: match[4] };
      if (now >= claim.expires) return { ok: false, reason: 'expired' };
      return { ok: true, claim };
    },
  };
}

export type LinkSigner = ReturnType<typeof linkSigner>;
