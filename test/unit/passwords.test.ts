import { describe, expect, it } from 'vitest';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../src/auth/passwords.js';

/** `$argon2id$v=19$m=…,t=…,p=…$`: what decides how long a check takes. */
const parameters = (hash: string) => hash.split('$').slice(1, 4).join('$');

describe('passwords', () => {
  it('hash with argon2id and check a password against its hash', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    expect(await verifyPassword(hash, 'wrong horse')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse')).toBe(false);
  });

  it('check an unknown username against a hash made with the same parameters as every new one', async () => {
    // Same parameters, same cost: an unknown username takes as long as a wrong password.
    expect(parameters(DUMMY_HASH)).toBe(parameters(await hashPassword('anything')));
    for (const attempt of ['', 'password', 'admin', DUMMY_HASH]) {
      expect(await verifyPassword(DUMMY_HASH, attempt)).toBe(false);
    }
  });
});
