import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Channel secrets at rest: AES-256-GCM under a key derived (HKDF) from the service's signing
 * secret, so the store and its backups hold only the sealed form; without the secret they read as
 * noise. A changed secret makes old seals unreadable: the channel then asks for its secrets again.
 */
export function sealer(secret: Uint8Array) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'sensorhub notifications', 'channel secrets', 32));
  return {
    seal(plain: Record<string, string>): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(plain), 'utf8'), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    /** The secrets, or undefined when the seal is not ours (another secret, or tampered with). */
    open(sealed: string): Record<string, string> | undefined {
      if (!sealed.startsWith('v1.')) return undefined;
      const raw = Buffer.from(sealed.slice(3), 'base64url');
      if (raw.length < 28) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
        return JSON.parse(plain) as Record<string, string>;
      } catch {
        return undefined;
      }
    },
  };
}

export type Sealer = ReturnType<typeof sealer>;
