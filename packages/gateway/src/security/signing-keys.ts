import { createPublicKey, type JsonWebKey, type KeyObject, randomUUID } from "node:crypto";
import {
  type CryptoKey,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importPKCS8,
  type JWK,
} from "jose";
import { BoundedCache } from "../lib/bounded-cache.js";
import type { Clock } from "../lib/clock.js";
import type { SigningKeyRecord, Store } from "../store/store.js";
import { seal, unseal } from "./seal.js";

/** The one JWT algorithm the gateway signs with and accepts (Ed25519 signatures). */
export const JWT_ALGORITHM = "EdDSA";
export const ACCEPTED_ALGORITHMS = [JWT_ALGORITHM];

interface LoadedKey {
  kid: string;
  /** A node:crypto key, so verification runs synchronously, off libuv's thread pool. */
  publicKey: KeyObject;
  publicJwk: JWK;
  privateKey: CryptoKey | undefined;
  createdAt: number;
  signsFrom: number;
  retiredAt: number | null;
}

/** How often a process re-reads the keys at most (sooner when the publication lead is short). */
const RELOAD_EVERY_MS = 60_000;

/**
 * The gateway's JWT signing keys, persisted in the store with the private half sealed under the
 * key-encryption key. A new key is published in the JWKS at once and signs only from its
 * `signsFrom`, a publication lead later: long enough for every instance to have re-read the keys
 * and for every JWKS cached before that to have expired, so whoever verifies tokens with a
 * cached JWKS knows each kid before it sees a token with it. Which key signs follows from the
 * stored keys and the time alone (the latest whose `signsFrom` has come and that is not retired),
 * so every instance switches at the same moment without talking to the others. Every key that
 * can still have valid or refreshable tokens outstanding verifies and stays published.
 */
export class SigningKeyRing {
  #keys = new Map<string, LoadedKey>();
  #loadedAt = 0;
  #reloading: Promise<void> | undefined;
  readonly #unknownKids = new BoundedCache<string, true>(1_000);

  constructor(
    private readonly store: Store,
    private readonly keyEncryptionKey: Buffer,
    private readonly now: Clock,
    /** How long a retired key keeps verifying: token lifetime + refresh grace. */
    private readonly retiredKeyLifetimeMs: number,
    /** How long verifiers may cache the JWKS (its Cache-Control max-age), in ms. */
    private readonly jwksMaxAgeMs = 0,
  ) {
    // Instances must learn of a new key well inside the lead; at least once a second.
    this.reloadEveryMs = Math.max(1000, Math.min(RELOAD_EVERY_MS, jwksMaxAgeMs / 3));
  }

  readonly reloadEveryMs: number;

  /**
   * How long after a rotation the new key starts signing: the JWKS cache time plus how late an
   * instance may re-read the keys (a JWKS it serves just before is cached that much longer).
   */
  get publicationLeadMs(): number {
    return this.jwksMaxAgeMs === 0 ? 0 : this.jwksMaxAgeMs + this.reloadEveryMs;
  }

  /** Loads the keys, creating the first one when the store has none that signs now or later. */
  async init(): Promise<void> {
    await this.reload();
    const at = this.now();
    const current = [...this.#keys.values()].some((k) => k.retiredAt === null || k.retiredAt > at);
    if (!current) await this.rotate();
  }

  async reload(): Promise<void> {
    this.#reloading ??= (async () => {
      try {
        const records = await this.store.listSigningKeys();
        const keys = new Map<string, LoadedKey>();
        for (const record of records)
          keys.set(record.kid, this.#keys.get(record.kid) ?? (await this.#load(record)));
        for (const record of records) {
          const key = keys.get(record.kid);
          if (key) key.retiredAt = record.retiredAt;
        }
        this.#keys = keys;
        this.#loadedAt = this.now();
      } finally {
        this.#reloading = undefined;
      }
    })();
    return this.#reloading;
  }

  async #load(record: SigningKeyRecord): Promise<LoadedKey> {
    const publicJwk = JSON.parse(record.publicJwk) as JWK;
    let privatePem: string;
    try {
      privatePem = unseal(this.keyEncryptionKey, record.privateKeySealed, record.kid);
    } catch {
      throw new Error(
        `Cannot decrypt JWT signing key ${record.kid}: the master key (GATEWAY_MASTER_KEY or master.key) is not the one it was sealed with.`,
      );
    }
    return {
      kid: record.kid,
      publicJwk,
      publicKey: createPublicKey({ key: publicJwk as JsonWebKey, format: "jwk" }),
      privateKey: (await importPKCS8(privatePem, record.alg)) as CryptoKey,
      createdAt: record.createdAt,
      signsFrom: record.signsFrom,
      retiredAt: record.retiredAt,
    };
  }

  /**
   * Creates a new signing key, published now and signing from the returned `signsFrom` (at once
   * for the store's first key: no JWKS was served before it). Every other key still unretired
   * retires at that moment and keeps verifying for a while.
   */
  async rotate(): Promise<{ kid: string; signsFrom: number }> {
    const { publicKey, privateKey } = await generateKeyPair(JWT_ALGORITHM, {
      crv: "Ed25519",
      extractable: true,
    });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: JWT_ALGORITHM, use: "sig" };
    await this.reload();
    const at = this.now();
    const unretired = [...this.#keys.values()].filter((k) => k.retiredAt === null);
    const signsFrom = unretired.length === 0 ? at : at + this.publicationLeadMs;
    await this.store.addSigningKey({
      kid,
      alg: JWT_ALGORITHM,
      publicJwk: JSON.stringify(publicJwk),
      privateKeySealed: seal(this.keyEncryptionKey, await exportPKCS8(privateKey), kid),
      createdAt: at,
      signsFrom,
      retiredAt: null,
    });
    for (const key of unretired) await this.store.retireSigningKey(key.kid, signsFrom);
    await this.reload();
    return { kid, signsFrom };
  }

  /** The key that signs at `at`: the latest started and not retired by then. */
  #signingKey(at = this.now()): LoadedKey | undefined {
    let chosen: LoadedKey | undefined;
    for (const key of this.#keys.values()) {
      const signing = key.signsFrom <= at && (key.retiredAt === null || key.retiredAt > at);
      if (signing && key.privateKey && (!chosen || key.signsFrom > chosen.signsFrom)) chosen = key;
    }
    return chosen;
  }

  #usable(key: LoadedKey): boolean {
    return key.retiredAt === null || this.now() - key.retiredAt <= this.retiredKeyLifetimeMs;
  }

  /** Re-reads the keys when the last read is older than the reload interval. */
  async #fresh(): Promise<void> {
    if (this.now() - this.#loadedAt > this.reloadEveryMs) await this.reload();
  }

  /** The key to sign with; picks up a rotation made by another process within the interval. */
  async signingKey(): Promise<{ kid: string; privateKey: CryptoKey }> {
    await this.#fresh();
    const key = this.#signingKey();
    if (!key?.privateKey) throw new Error("No JWT signing key available");
    return { kid: key.kid, privateKey: key.privateKey };
  }

  /** The public key for a token's `kid`, or undefined when unknown, retired too long, or absent. */
  async verificationKey(kid: string | undefined): Promise<KeyObject | undefined> {
    if (kid === undefined) return undefined;
    let key = this.#keys.get(kid);
    // A kid we have not seen may come from a key another instance just created: look it up in
    // the store (concurrent lookups share one reload). A kid the store does not have either is
    // remembered for a while, so made-up kids cannot turn every request into a store query; a
    // real key is always in the store before any token names it, so this never hides one.
    if (key === undefined && this.#unknownKids.get(kid, this.now()) === undefined) {
      await this.reload();
      key = this.#keys.get(kid);
      if (key === undefined) this.#unknownKids.set(kid, true, this.now() + 5_000);
    }
    return key && this.#usable(key) ? key.publicKey : undefined;
  }

  /** The published keys: every key that signs, will sign, or still verifies. */
  async jwks(): Promise<{ keys: JWK[] }> {
    await this.#fresh();
    return {
      keys: [...this.#keys.values()].filter((k) => this.#usable(k)).map((k) => k.publicJwk),
    };
  }

  list(): { kid: string; createdAt: number; signsFrom: number; retiredAt: number | null }[] {
    return [...this.#keys.values()].map(({ kid, createdAt, signsFrom, retiredAt }) => ({
      kid,
      createdAt,
      signsFrom,
      retiredAt,
    }));
  }
}
