import { randomBytes } from 'node:crypto';
import { Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * argon2id with the library's defaults (memory-hard: 19 MiB, 2 passes). One object, so that a
 * test can watch which hashes logins check passwords against.
 */
export const argon2id = {
  hash: (password: string): Promise<string> => hash(password, { algorithm: Algorithm.Argon2id }),
  verify: (passwordHash: string, password: string): Promise<boolean> => verify(passwordHash, password),
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

let dummy: Promise<string> | undefined;
/**
 * A hash of a random password, verified against when the user does not exist, so a wrong
 * username costs the same time as a wrong password.
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}

export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}
