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
 * Parsed public keys are kept by key id, so a PEM is parsed once per process. Concurrent misses
 * for one partner share one read.
 */
export class PartnerDirectory {
  readonly #partners = new BoundedCache<string, PartnerView | null>(10_000);
  readonly #keyObjects = new BoundedCache<string, KeyObject>(20_000);
  readonly #loads = new Map<string, Promise<PartnerView | null>>();

  constructor(
    private readonly store: Store,
    private readonly now: Clock,
    private readonly ttlMs: number,
  ) {}

  async get(clientId: string): Promise<PartnerView | undefined> {
    const now = this.now();
    const cached = this.#partners.get(clientId, now);
    if (cached !== undefined) return cached ?? undefined;
    // One read per partner at a time: when the entry expires under load, the requests in flight
    // wait for the same read instead of each reading the partner, its keys and its sessions.
    let load = this.#loads.get(clientId);
    if (load === undefined) {
      const started: Promise<PartnerView | null> = this.#read(clientId, now)
        .then((view) => {
          // Invalidated while reading: the view may predate the change, so it is not kept.
          if (this.#loads.get(clientId) === started)
            this.#partners.set(clientId, view, now + this.ttlMs);
          return view;
        })
        .finally(() => {
          if (this.#loads.get(clientId) === started) this.#loads.delete(clientId);
        });
      this.#loads.set(clientId, started);
      load = started;
    }
    return (await load) ?? undefined;
  }

  async #read(clientId: string, now: number): Promise<PartnerView | null> {
    const partner = await this.store.findPartnerByClientId(clientId);
    if (!partner) return null;
    const [allKeys, revokedSessions] = await Promise.all([
      this.store.listPartnerKeys(partner.id),
      this.store.tenants.revokedSessions(`partner:${partner.id}`, now),
    ]);
    const keys = allKeys.filter((k) => k.revokedAt === null);
    return {
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

  invalidate(clientId: string): void {
    this.#partners.delete(clientId);
    this.#loads.delete(clientId);
  }
}
