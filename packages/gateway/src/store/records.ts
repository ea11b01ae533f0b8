/** The rows the store reads and writes, shared by every store interface. Times are Unix milliseconds. */

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

interface OrderActor {
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
  /** The create's replay-guard nonce was stored already: by the commit of its own order. */
  | { kind: "request_replayed" }
  | { kind: "duplicate_purchase_order"; existing: SalesOrderRecord };

export interface OrderPage {
  orders: SalesOrderRecord[];
  /** The seq to continue below, when more orders exist. */
  nextBeforeSeq: number | null;
}
