import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { Secret, TOTP } from "otpauth";

/**
 * Time-based one-time codes (RFC 6238) as every authenticator app reads them: SHA-1, 6 digits,
 * a 30 s step, a 160-bit secret (RFC 4226's recommended length). A code is accepted one step
 * either side of now (a phone's clock drifts, a person types slowly); the caller refuses a step
 * it has seen before, so an overheard code cannot be replayed.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
const WINDOW = 1;
const ISSUER = "Orderline";

/** A new secret, in base32 (what the otpauth:// URI and the typed-in form carry). */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

const totpOf = (secret: string, label = "") =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/** The otpauth:// URI an authenticator app scans (issuer Orderline, the user's email). */
export const totpUri = (secret: string, label: string): string => totpOf(secret, label).toString();

/** The time step of `at` (Unix ms). */
export const totpStep = (at: number): number => Math.floor(at / 1000 / TOTP_PERIOD_SECONDS);

/**
 * The step `code` belongs to when it is the secret's code one step either side of `at`, else
 * undefined. otpauth compares the candidates in constant time.
 */
export function totpCodeStep(secret: string, code: string, at: number): number | undefined {
  const token = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totpOf(secret).validate({ token, timestamp: at, window: WINDOW });
  return delta === null ? undefined : totpStep(at) + delta;
}

/** How many recovery codes an enrolment hands out. */
export const RECOVERY_CODE_COUNT = 10;
// No 0/O, 1/I/L: a code is read off paper.
const RECOVERY_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** Ten characters of a 31-letter alphabet (~50 bits), shown as `XXXXX-XXXXX`. */
export function newRecoveryCode(): string {
  let code = "";
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What a person typed, as stored: upper case, no spaces nor dashes. */
export const normaliseRecoveryCode = (typed: string): string =>
  typed.toUpperCase().replace(/[\s-]/g, "");

/**
 * A recovery code's stored form: HMAC-SHA-256 under the server's pepper. The codes are random
 * (~50 bits), so a fast keyed hash suffices (no password stretching); without the pepper a copy
 * of the database tests none.
 */
export const recoveryCodeHash = (pepper: Buffer, code: string): string =>
  createHmac("sha256", pepper)
    .update(`recovery-code:${normaliseRecoveryCode(code)}`)
    .digest("base64url");

/** The stored hash among `stored` that `code` matches, compared in constant time each. */
export function matchingRecoveryHash(
  pepper: Buffer,
  code: string,
  stored: readonly string[],
): string | undefined {
  const candidate = Buffer.from(recoveryCodeHash(pepper, code));
  let found: string | undefined;
  // Every stored hash is compared, so the time taken does not say which one matched.
  for (const hash of stored) {
    const other = Buffer.from(hash);
    if (other.length === candidate.length && timingSafeEqual(other, candidate)) found = hash;
  }
  return found;
}
