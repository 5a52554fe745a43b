import { hashPool } from './hash-pool';

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane. Changing these leaves existing hashes verifiable
// (the encoded hash carries its parameters) but new ones would differ.
const PARAMS = { parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32 } as const;

/** argon2id on a worker thread (lib/users/hash-pool.ts), never on the event loop. */
export async function hashPassword(password: string): Promise<string> {
  return (await hashPool().run({ op: 'hash', password, params: PARAMS })) as string;
}

/** False for a wrong password or a malformed hash; a failed thread is an error, never a "no". */
export async function verifyPassword(password: string, hash: string, opts: { priority?: boolean } = {}): Promise<boolean> {
  return (await hashPool().run({ op: 'verify', password, hash }, opts)) === true;
}
