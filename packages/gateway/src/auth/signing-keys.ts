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
import { seal, unseal } from "../lib/seal.js";
import type { SigningKeyRecord, Store } from "../store/store.js";

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
  retiredAt: number | null;
}

/**
 * The gateway's JWT signing keys, persisted in the store with the private half sealed under the
 * key-encryption key. The newest unretired key signs; every key that can still have valid or
 * refreshable tokens outstanding verifies and is published in the JWKS.
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
    private readonly reloadEveryMs = 60_000,
  ) {}

  /** Loads the keys, creating the first one when the store has none. */
  async init(): Promise<void> {
    await this.reload();
    if (this.#signingKey() === undefined) {
      await this.rotate();
    }
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
      retiredAt: record.retiredAt,
    };
  }

  /** Creates a new signing key and retires the previous one (it keeps verifying for a while). */
  async rotate(): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(JWT_ALGORITHM, {
      crv: "Ed25519",
      extractable: true,
    });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: JWT_ALGORITHM, use: "sig" };
    const at = this.now();
    const previous = this.#signingKey();
    await this.store.addSigningKey({
      kid,
      alg: JWT_ALGORITHM,
      publicJwk: JSON.stringify(publicJwk),
      privateKeySealed: seal(this.keyEncryptionKey, await exportPKCS8(privateKey), kid),
      createdAt: at,
      retiredAt: null,
    });
    if (previous) await this.store.retireSigningKey(previous.kid, at);
    await this.reload();
    return kid;
  }

  #signingKey(): LoadedKey | undefined {
    let newest: LoadedKey | undefined;
    for (const key of this.#keys.values()) {
      if (key.retiredAt === null && key.privateKey && (!newest || key.createdAt > newest.createdAt))
        newest = key;
    }
    return newest;
  }

  #usable(key: LoadedKey): boolean {
    return key.retiredAt === null || this.now() - key.retiredAt <= this.retiredKeyLifetimeMs;
  }

  /** The key to sign with; picks up a rotation made by another process within a minute. */
  async signingKey(): Promise<{ kid: string; privateKey: CryptoKey }> {
    if (this.now() - this.#loadedAt > this.reloadEveryMs) await this.reload();
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

  jwks(): { keys: JWK[] } {
    return {
      keys: [...this.#keys.values()].filter((k) => this.#usable(k)).map((k) => k.publicJwk),
    };
  }

  list(): { kid: string; createdAt: number; retiredAt: number | null }[] {
    return [...this.#keys.values()].map(({ kid, createdAt, retiredAt }) => ({
      kid,
      createdAt,
      retiredAt,
    }));
  }
}
