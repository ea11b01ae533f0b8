import { randomBytes } from "node:crypto";
import type { Clock } from "../../lib/clock.js";
import { newId } from "../../lib/random.js";
import { ApiError } from "../../problems/api-error.js";
import {
  generateClientId,
  generateClientSecret,
  hashClientSecret,
} from "../../security/client-secret.js";
import { parsePartnerPublicKey } from "../../security/public-key.js";
import type { Shares } from "../../security/shares.js";
import type {
  PartnerKeyRecord,
  PartnerRecord,
  PartnerStatus,
  SignatureVersion,
  Store,
} from "../../store/store.js";
import { announceAccessChange } from "../events/access.js";
import type { PartnerDirectory } from "./directory.js";

/** Two active keys let a partner roll its key pair without downtime. */
const MAX_ACTIVE_KEYS = 2;

/** How long a rotated-out secret keeps working unless told otherwise. */
const DEFAULT_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;
/** A grace period is for deploying the new secret, not a second credential. */
const MAX_SECRET_GRACE_MS = 30 * 24 * 60 * 60 * 1000;

export class PartnerAdminError extends Error {
  override name = "PartnerAdminError";
}

export interface PartnerSummary {
  client_id: string;
  name: string;
  status: PartnerStatus;
  secret_version: number;
  /** Until when the secret before the last rotation still works (null: it does not). */
  previous_secret_valid_until: string | null;
  /** 2: requests must be signed with signature version 2; 1: both versions are accepted. */
  signature_version: SignatureVersion;
  /** The tenant the partner's orders go to, if any. */
  tenant_id: string | null;
  created_at: string;
  keys: {
    key_id: string;
    fingerprint: string;
    bits: number;
    created_at: string;
    revoked_at: string | null;
  }[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The integration team's operations on partners: what the admin CLI and the demo set-up call. */
export class PartnerAdmin {
  constructor(
    private readonly store: Store,
    private readonly pepper: Buffer,
    private readonly now: Clock,
    private readonly directory?: PartnerDirectory,
    /** The `partners` share: how many partners one tenant may have. */
    private readonly shares?: Pick<Shares, "checkSize">,
  ) {}

  /**
   * Where a change of the partner's credentials takes effect: this process's directory at once,
   * and every instance's open streams of the partner (they re-check and end).
   */
  async #credentialsChanged(partner: PartnerRecord): Promise<void> {
    this.directory?.invalidate(partner.clientId);
    await announceAccessChange(this.store.events, `partner:${partner.id}`, this.now());
  }

  /** Refuses one more partner for a tenant that has its share of them. */
  async #assertRoomFor(tenantId: string): Promise<void> {
    const count = await this.store.tenants.countTenantPartners(tenantId);
    this.shares?.checkSize(
      "partners",
      count + 1,
      `The tenant has ${count} partners, as many as its share allows (GATEWAY_SHARE_PARTNERS_PER_TENANT); an operator can detach partners no longer used (partners set-tenant --tenant none) or raise the share.`,
    );
  }

  /**
   * Refuses a key another partner of the same tenant holds (or held): one key pair signing for
   * several partners would let whoever holds it take each of their shares.
   */
  async #assertKeyNotShared(tenantId: string, fingerprint: string, own?: string): Promise<void> {
    const holder = await this.store.tenants.tenantPartnerWithKey(tenantId, fingerprint);
    if (holder !== undefined && holder !== own)
      throw new ApiError(
        "partner_key_in_use",
        `This public key is registered for another partner of the tenant (${holder}); each partner signs with a key pair of its own. Generate a new key pair.`,
      );
  }

  async #partner(clientId: string): Promise<PartnerRecord> {
    const partner = await this.store.findPartnerByClientId(clientId);
    if (!partner) throw new PartnerAdminError(`No partner with client_id '${clientId}'.`);
    return partner;
  }

  async create(
    name: string,
    publicKeyPem?: string,
    options: { tenantId?: string } = {},
  ): Promise<{ clientId: string; clientSecret: string; keyId?: string }> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > 200)
      throw new PartnerAdminError("The name must be 1–200 characters.");
    const { tenantId } = options;
    if (tenantId !== undefined && !(await this.store.tenants.findTenant(tenantId)))
      throw new PartnerAdminError(`No tenant with id '${tenantId}' (see: tenants list).`);
    // Check the key and the share before creating anything: a refusal leaves no half-made partner.
    const key = publicKeyPem === undefined ? undefined : parsePartnerPublicKey(publicKeyPem);
    if (tenantId !== undefined) {
      await this.#assertRoomFor(tenantId);
      if (key) await this.#assertKeyNotShared(tenantId, key.fingerprint);
    }
    const clientId = generateClientId();
    const clientSecret = generateClientSecret();
    const at = this.now();
    const partner: PartnerRecord = {
      id: newId(),
      clientId,
      name: trimmed,
      secretHash: hashClientSecret(this.pepper, clientSecret),
      secretVersion: 1,
      status: "active",
      createdAt: at,
      updatedAt: at,
      previousSecretHash: null,
      previousSecretUntil: null,
    };
    await this.store.createPartner(partner);
    // The partner's orders go to this tenant, whose users can read them.
    if (tenantId !== undefined) await this.store.tenants.setPartnerTenant(partner.id, tenantId);
    const keyId =
      publicKeyPem === undefined ? undefined : await this.addKey(clientId, publicKeyPem);
    return keyId === undefined ? { clientId, clientSecret } : { clientId, clientSecret, keyId };
  }

  async addKey(clientId: string, publicKeyPem: string): Promise<string> {
    const parsed = parsePartnerPublicKey(publicKeyPem);
    const partner = await this.#partner(clientId);
    const keys = await this.store.listPartnerKeys(partner.id);
    const active = keys.filter((k) => k.revokedAt === null);
    const known = keys.find((k) => k.fingerprint === parsed.fingerprint);
    if (known) {
      throw new PartnerAdminError(
        known.revokedAt === null
          ? `This key is already registered for the partner as ${known.id}.`
          : "This key was registered before and revoked; a revoked key cannot come back. Generate a new key pair.",
      );
    }
    if (active.length >= MAX_ACTIVE_KEYS) {
      throw new PartnerAdminError(
        `The partner already has ${MAX_ACTIVE_KEYS} active keys; revoke one first (partners revoke-key).`,
      );
    }
    const tenantId = await this.store.tenants.partnerTenant(partner.id);
    if (tenantId !== null) await this.#assertKeyNotShared(tenantId, parsed.fingerprint, clientId);
    const record: PartnerKeyRecord = {
      id: `key_${randomBytes(8).toString("hex")}`,
      partnerId: partner.id,
      fingerprint: parsed.fingerprint,
      publicKeyPem: parsed.pem,
      bits: parsed.bits,
      createdAt: this.now(),
      revokedAt: null,
    };
    await this.store.addPartnerKey(record);
    this.directory?.invalidate(clientId);
    return record.id;
  }

  async revokeKey(clientId: string, keyId: string): Promise<void> {
    const partner = await this.#partner(clientId);
    if (!(await this.store.revokePartnerKey(partner.id, keyId, this.now()))) {
      throw new PartnerAdminError(`No active key '${keyId}' for partner '${clientId}'.`);
    }
    await this.#credentialsChanged(partner);
  }

  /**
   * Issues a new secret. For `graceMs` (default 24 h) the old secret still logs in and tokens
   * issued under it keep working, so the partner can deploy the new one without downtime; 0
   * (`--immediately`, for a leaked secret) stops both at once. Only the secret just replaced
   * has a grace period: rotating again ends the previous one's.
   */
  async rotateSecret(
    clientId: string,
    graceMs = DEFAULT_SECRET_GRACE_MS,
  ): Promise<{ clientSecret: string; previousValidUntil: number | null }> {
    if (!Number.isSafeInteger(graceMs) || graceMs < 0 || graceMs > MAX_SECRET_GRACE_MS) {
      throw new PartnerAdminError(
        `The grace period must be between 0 and ${MAX_SECRET_GRACE_MS / 86_400_000} days.`,
      );
    }
    const partner = await this.#partner(clientId);
    const clientSecret = generateClientSecret();
    const at = this.now();
    const previousValidUntil = graceMs === 0 ? null : at + graceMs;
    await this.store.rotatePartnerSecret(
      partner.id,
      hashClientSecret(this.pepper, clientSecret),
      at,
      previousValidUntil,
    );
    await this.#credentialsChanged(partner);
    return { clientSecret, previousValidUntil };
  }

  /** Moves a partner's future and past orders to another tenant (null: none). */
  async setTenant(clientId: string, tenantId: string | null): Promise<void> {
    const partner = await this.#partner(clientId);
    if (tenantId !== null && !(await this.store.tenants.findTenant(tenantId)))
      throw new PartnerAdminError(`No tenant with id '${tenantId}' (see: tenants list).`);
    if (tenantId !== null && tenantId !== (await this.store.tenants.partnerTenant(partner.id))) {
      await this.#assertRoomFor(tenantId);
      for (const key of await this.store.listPartnerKeys(partner.id))
        await this.#assertKeyNotShared(tenantId, key.fingerprint, clientId);
    }
    await this.store.tenants.setPartnerTenant(partner.id, tenantId);
  }

  /**
   * 2 requires signature version 2 from the partner (version 1 is refused from its next request
   * on); 1 accepts both again.
   */
  async setSignatureVersion(clientId: string, version: SignatureVersion): Promise<void> {
    const partner = await this.#partner(clientId);
    await this.store.setPartnerSignatureVersion(partner.id, version, this.now());
    this.directory?.invalidate(clientId);
  }

  async setStatus(clientId: string, status: PartnerStatus): Promise<void> {
    const partner = await this.#partner(clientId);
    await this.store.setPartnerStatus(partner.id, status, this.now());
    await this.#credentialsChanged(partner);
  }

  async list(): Promise<PartnerSummary[]> {
    const partners = await this.store.listPartners();
    return Promise.all(
      partners.map(async (p) => ({
        client_id: p.clientId,
        name: p.name,
        status: p.status,
        secret_version: p.secretVersion,
        previous_secret_valid_until:
          p.previousSecretUntil !== null && p.previousSecretUntil > this.now()
            ? iso(p.previousSecretUntil)
            : null,
        signature_version: p.signatureVersion ?? 1,
        tenant_id: await this.store.tenants.partnerTenant(p.id),
        created_at: iso(p.createdAt),
        keys: (await this.store.listPartnerKeys(p.id)).map((k) => ({
          key_id: k.id,
          fingerprint: k.fingerprint,
          bits: k.bits,
          created_at: iso(k.createdAt),
          revoked_at: k.revokedAt === null ? null : iso(k.revokedAt),
        })),
      })),
    );
  }
}
