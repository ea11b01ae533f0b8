import { randomBytes, type ScryptOptions, timingSafeEqual } from "node:crypto";
import { type Scrypt, scryptOnPool } from "./scrypt-threads.js";

/**
 * User passwords are low-entropy, so they are hashed with scrypt, a memory-hard KDF: N = 2^17,
 * r = 8, p = 1 by default (OWASP's recommendation; 128 MiB and a few hundred ms per hash), a
 * 16-byte random salt, a 32-byte key. The parameters are stored with each hash
 * (`scrypt$N$r$p$salt$hash`), so raising GATEWAY_SCRYPT_COST applies to new passwords and old
 * hashes still verify. scrypt never runs on the event loop: at sign-in on the gateway's own
 * low-priority threads, bounded in number (GATEWAY_HASH_CONCURRENCY); elsewhere (the admin
 * CLI) on libuv's thread pool.
 */

const DEFAULT_SCRYPT_COST = 2 ** 17;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;

/** Passwords are bounded so hashing cost stays bounded; 12 characters is the floor. */
const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

function derive(
  password: string,
  salt: Buffer,
  options: ScryptOptions,
  run: Scrypt,
): Promise<Buffer> {
  const maxmem = 128 * (options.N ?? 0) * (options.r ?? 8) * 2;
  return run(password.normalize("NFC"), salt, KEY_LENGTH, { ...options, maxmem });
}

/** `run` is where scrypt runs: libuv's pool by default, the gateway's own threads at sign-in. */
export async function hashPassword(
  password: string,
  cost = DEFAULT_SCRYPT_COST,
  run: Scrypt = scryptOnPool,
): Promise<string> {
  if (!Number.isInteger(Math.log2(cost)) || cost < 2 ** 10) {
    throw new Error(`The scrypt cost must be a power of two of at least 1024, got ${cost}.`);
  }
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N: cost, r: BLOCK_SIZE, p: PARALLELISM }, run);
  return `scrypt$${cost}$${BLOCK_SIZE}$${PARALLELISM}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/**
 * A stored hash of `cost` that no password matches (its key is random): checking a password
 * against it costs what checking a real one does, and making it costs no hash.
 */
export function decoyHash(cost = DEFAULT_SCRYPT_COST): string {
  const random = (bytes: number) => randomBytes(bytes).toString("base64url");
  return `scrypt$${cost}$${BLOCK_SIZE}$${PARALLELISM}$${random(16)}$${random(KEY_LENGTH)}`;
}

/** Timing-safe; a stored hash of an unknown format never matches (and still costs a hash). */
export async function verifyPassword(
  password: string,
  stored: string,
  run: Scrypt = scryptOnPool,
): Promise<boolean> {
  const parts = stored.split("$");
  const [scheme, n, r, p, salt, hash] = parts;
  const valid =
    parts.length === 6 &&
    scheme === "scrypt" &&
    /^\d+$/.test(n ?? "") &&
    /^\d+$/.test(r ?? "") &&
    /^\d+$/.test(p ?? "");
  const expected = Buffer.from(valid ? (hash as string) : "", "base64url");
  const key = await derive(
    password,
    Buffer.from(valid ? (salt as string) : "", "base64url"),
    {
      N: valid ? Number(n) : DEFAULT_SCRYPT_COST,
      r: valid ? Number(r) : BLOCK_SIZE,
      p: valid ? Number(p) : PARALLELISM,
    },
    run,
  );
  return valid && expected.length === key.length && timingSafeEqual(expected, key);
}

export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `The password must have at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `The password must have at most ${PASSWORD_MAX_LENGTH} characters.`;
  return undefined;
}
