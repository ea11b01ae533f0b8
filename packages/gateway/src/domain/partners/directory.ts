import type { KeyObject } from "node:crypto";
import { createPublicKey } from "node:crypto";
import { BoundedCache } from "../../lib/bounded-cache.js";
import type { Clock } from "../../lib/clock.js";
import type { PartnerStatus, SignatureVersion, Store } from "../../store/store.js";

/** What a signed request needs to know about its partner, with parsed public keys. */
export interface PartnerView {
  id: string;
  clientId: string;
  name: string;
  status: PartnerStatus;
  secretVersion: number;
  /** End of the grace period of the secret before the last rotation (null: none). */
  previousSecretUntil: number | null;
  /** The lowest signature version accepted from this partner. */
  signatureVersion: SignatureVersion;
  activeKeys: { id: string; keyObject: KeyObject }[];
  /** Login sessions (`sid`) revoked after a refresh token was reused. */
  revokedSessions: ReadonlySet<string>;
}

/**
 * Partner status, secret version, active keys and revoked sessions, cached per process for
 * `ttlMs` (default 1 s) so a change made elsewhere (the admin CLI, another instance) takes
 * effect within that time. Changes made through this process invalidate the entry at once.
 * Parsed public keys are kept by key id, so a PEM is parsed once per process.
 */
export class PartnerDirectory {
  readonly #partners = new BoundedCache<string, PartnerView | null>(10_000);
  readonly #keyObjects = new BoundedCache<string, KeyObject>(20_000);

  constructor(
    private readonly store: Store,
    private readonly now: Clock,
    private readonly ttlMs: number,
  ) {}

  async get(clientId: string): Promise<PartnerView | undefined> {
    const now = this.now();
    const cached = this.#partners.get(clientId, now);
    if (cached !== undefined) return cached ?? undefined;
    const partner = await this.store.findPartnerByClientId(clientId);
    let view: PartnerView | null = null;
    if (partner) {
      const [allKeys, revokedSessions] = await Promise.all([
        this.store.listPartnerKeys(partner.id),
        this.store.tenants.revokedSessions(`partner:${partner.id}`, now),
      ]);
      const keys = allKeys.filter((k) => k.revokedAt === null);
      view = {
        id: partner.id,
        clientId: partner.clientId,
        name: partner.name,
        status: partner.status,
        secretVersion: partner.secretVersion,
        previousSecretUntil: partner.previousSecretUntil,
        revokedSessions: new Set(revokedSessions),
        signatureVersion: partner.signatureVersion ?? 1,
        activeKeys: keys.map((k) => {
          let keyObject = this.#keyObjects.get(k.id, now);
          if (keyObject === undefined) {
            keyObject = createPublicKey(k.publicKeyPem);
            this.#keyObjects.set(k.id, keyObject, Number.POSITIVE_INFINITY);
          }
          return { id: k.id, keyObject };
        }),
      };
    }
    this.#partners.set(clientId, view, now + this.ttlMs);
    return view ?? undefined;
  }

  invalidate(clientId: string): void {
    this.#partners.delete(clientId);
  }
}
