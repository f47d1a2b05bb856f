import { randomBytes } from 'node:crypto';
import type * as Argon2 from '@node-rs/argon2';

/** The native argon2 library, loaded with the first password hashed or checked. */
let argon2Module: Promise<typeof Argon2> | undefined;
const argon2 = () => (argon2Module ??= import('@node-rs/argon2'));

/**
 * argon2id with the library's defaults (memory-hard: 19 MiB, 2 passes). One object, so that a
 * test can watch which hashes logins check passwords against.
 */
export const argon2id = {
  hash: async (password: string): Promise<string> => {
    const { Algorithm, hash } = await argon2();
    return hash(password, { algorithm: Algorithm.Argon2id });
  },
  verify: async (passwordHash: string, password: string): Promise<boolean> => (await argon2()).verify(passwordHash, password),
};

export function hashPassword(password: string): Promise<string> {
  return argon2id.hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await argon2id.verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * The hash an unknown username is checked against, so that it costs the same time as a wrong
 * password: made once with the library's defaults from a random password nobody kept (the check
 * fails whatever is typed, and a login needs an existing user besides). A constant rather than
 * one made at start: hashing takes 19 MiB a board would then hold.
 */
export const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$22z1/sLyIUIxWULhYTnoRQ$+isLmMmrYUIu9Ytm3510lqKNe8Cs44tzn9ECtGfBdn4';

export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}
