import { hash, verify } from '@node-rs/argon2';

/**
 * Argon2id with the OWASP minimum (19 MiB, 2 passes, 1 lane). The algorithm is given by its number because
 * `Algorithm` is an ambient const enum, which isolated modules cannot read; 2 is Argon2id.
 */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no hash (unknown e-mail, or an account that only signs in
 * with Google) it still verifies against a throwaway hash, so the answer takes as long either way and the
 * response time does not reveal which e-mail addresses have accounts.
 */
export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
