import type { TenantStore } from "./tenant-store.js";
import type { WebhookStore } from "./webhook-store.js";

/**
 * The one door to persistence. Routes and services depend on this interface only; every method
 * is async so a networked database (PostgreSQL) implements it unchanged. Times are Unix
 * milliseconds.
 */

export type PartnerStatus = "active" | "disabled";

export interface PartnerRecord {
  id: string;
  clientId: string;
  name: string;
  secretHash: string;
  /** Bumped on every secret rotation; tokens carry the version they were issued under. */
  secretVersion: number;
  status: PartnerStatus;
  createdAt: number;
  updatedAt: number;
  /** The secret before the last rotation, hashed like secretHash, while its grace period runs. */
  previousSecretHash: string | null;
  /** End of that grace period: the previous secret and its tokens work until then. */
  previousSecretUntil: number | null;
  /**
   * The signature version the partner must use: 1 accepts versions 1 and 2, 2 refuses version 1.
   * Absent on creation: new partners start at 1 (the column's default).
   */
  signatureVersion?: SignatureVersion;
}

export type SignatureVersion = 1 | 2;

export interface PartnerKeyRecord {
  id: string;
  partnerId: string;
  fingerprint: string;
  publicKeyPem: string;
  bits: number;
  createdAt: number;
  revokedAt: number | null;
}

export interface SigningKeyRecord {
  kid: string;
  alg: string;
  publicJwk: string;
  /** The private key, sealed with the key-encryption key (see lib/seal.ts). */
  privateKeySealed: string;
  createdAt: number;
  /** When it starts signing; it is published in the JWKS from `createdAt`. */
  signsFrom: number;
  /** When it stops signing (may be ahead: the moment its successor starts). */
  retiredAt: number | null;
}

export interface ProductLine {
  product_code: string;
  quantity: number;
  uom?: string;
  unit_price?: number;
  notes?: string;
}

export interface NewSalesOrder {
  id: string;
  partnerId: string;
  purchaseOrderNo: string | null;
  /** ISO 4217 code, or null (absent in records written before it existed) when not named. */
  currency?: string | null;
  customerCode: string;
  siteCode: string;
  salesName: string;
  address: string;
  products: ProductLine[];
  status: string;
  createdAt: number;
}

export interface SalesOrderRecord extends NewSalesOrder {
  /** Store-assigned, strictly increasing across partners; gives the listing order. */
  seq: number;
  /** The order's number among its partner's orders (1, 2, …): gives the order number. */
  partnerSeq: number;
  /** 1 at creation, bumped by every status change: the ETag of optimistic concurrency. */
  version: number;
  /** The last status change (the creation time until the first one). */
  updatedAt: number;
}

/** Where an order move may reach: one partner's orders, or those of a tenant's partners. */
export type OrderScope = { partnerId: string } | { tenantId: string };

export interface OrderActor {
  type: "partner" | "user";
  /** The partner's or the user's id. */
  id: string;
  /** The partner's client_id or the user's email, as the history shows it. */
  name: string;
}

export interface OrderMove {
  orderId: string;
  scope: OrderScope;
  /** The statuses the order may be in for the move to apply. */
  from: readonly string[];
  to: string;
  /** When given, the move applies only to this version of the order (If-Match). */
  expectedVersion?: number;
  actor: OrderActor;
  reason: string | null;
  at: number;
}

export type OrderMoveOutcome =
  | { kind: "moved"; order: SalesOrderRecord }
  | { kind: "not_found" }
  | { kind: "stale"; order: SalesOrderRecord }
  | { kind: "illegal"; order: SalesOrderRecord };

export interface OrderChangeRecord {
  orderId: string;
  from: string;
  to: string;
  actor: OrderActor;
  reason: string | null;
  at: number;
}

/** One outbox entry: an order was created (from null) or changed status. */
export interface OrderEventRecord {
  seq: number;
  /** The event id receivers de-duplicate on. */
  id: string;
  partnerId: string;
  orderId: string;
  type: "order.created" | "order.status_changed";
  from: string | null;
  to: string;
  reason: string | null;
  createdAt: number;
}

export interface OrderFilter {
  status?: string;
  createdFrom?: number;
  /** Exclusive. */
  createdTo?: number;
  purchaseOrderNo?: string;
}

export interface IdempotencyClaim {
  key: string;
  requestHash: string;
}

export type CreateOrderOutcome =
  | { kind: "created"; order: SalesOrderRecord }
  | { kind: "replayed"; order: SalesOrderRecord }
  | { kind: "idempotency_mismatch" }
  | { kind: "duplicate_purchase_order"; existing: SalesOrderRecord };

export interface OrderPage {
  orders: SalesOrderRecord[];
  /** The seq to continue below, when more orders exist. */
  nextBeforeSeq: number | null;
}

export interface Store {
  readonly kind: string;
  /** Tenants, users, vocabulary overrides, login throttle (tenant-store.ts). */
  readonly tenants: TenantStore;
  /** Webhook endpoints, their delivery queue and attempts (webhook-store.ts). */
  readonly webhooks: WebhookStore;
  /** Applies pending migrations; safe when several processes start at once. */
  migrate(): Promise<void>;
  /** The highest applied migration version; rejects when the store cannot be reached. */
  schemaVersion(): Promise<number>;
  close(): Promise<void>;

  createPartner(partner: PartnerRecord): Promise<void>;
  findPartnerByClientId(clientId: string): Promise<PartnerRecord | undefined>;
  listPartners(): Promise<PartnerRecord[]>;
  countPartners(): Promise<number>;
  setPartnerStatus(partnerId: string, status: PartnerStatus, at: number): Promise<void>;
  /**
   * Stores the new secret hash and bumps secretVersion; returns the new version. With
   * `previousUntil`, the replaced hash is kept as the previous secret until then; with null, no
   * previous secret remains.
   */
  rotatePartnerSecret(
    partnerId: string,
    secretHash: string,
    at: number,
    previousUntil: number | null,
  ): Promise<number>;

  addPartnerKey(key: PartnerKeyRecord): Promise<void>;
  listPartnerKeys(partnerId: string): Promise<PartnerKeyRecord[]>;
  revokePartnerKey(partnerId: string, keyId: string, at: number): Promise<boolean>;
  setPartnerSignatureVersion(
    partnerId: string,
    version: SignatureVersion,
    at: number,
  ): Promise<void>;

  /**
   * Makes the next order number of each partner (or of `partnerId` only) at least `floor + 1`:
   * after restoring an older backup, numbers already handed out are not issued again. Never
   * lowers a count. Resolves how many partners it raised.
   */
  raiseOrderNumberFloor(floor: number, partnerId?: string): Promise<number>;

  listSigningKeys(): Promise<SigningKeyRecord[]>;
  addSigningKey(key: SigningKeyRecord): Promise<void>;
  retireSigningKey(kid: string, at: number): Promise<void>;

  /**
   * Records that token `jti` was refreshed into `newJti`. Returns false, changing nothing, when
   * that token was refreshed before: each token refreshes once, decided atomically here.
   */
  recordTokenRefresh(jti: string, partnerId: string, newJti: string, at: number): Promise<boolean>;

  /**
   * Creates an order unless the partner already has one with the same purchase_order_no, or the
   * idempotency key was used before (same body: the first order is replayed; different body:
   * mismatch). Resolves only once the order is durable.
   */
  createOrder(order: NewSalesOrder, idempotency?: IdempotencyClaim): Promise<CreateOrderOutcome>;
  findOrder(partnerId: string, orderId: string): Promise<SalesOrderRecord | undefined>;
  listOrders(
    partnerId: string,
    options: { limit: number; beforeSeq?: number; filter?: OrderFilter },
  ): Promise<OrderPage>;
  /**
   * Moves an order's status atomically: one conditional UPDATE (on the current status and, if
   * given, version) and its history row in one transaction. When nothing moved, says why.
   */
  moveOrder(move: OrderMove): Promise<OrderMoveOutcome>;
  /** An order's status changes, oldest first. */
  orderHistory(orderId: string): Promise<OrderChangeRecord[]>;
  /** Outbox events after `afterSeq`, oldest first (the order they were committed in). */
  listOrderEvents(options: { afterSeq?: number; limit: number }): Promise<OrderEventRecord[]>;
}
