import type { AuditStore } from "./audit-store.js";
import type { ConsoleSessionStore } from "./console-session-store.js";
import type { EventFeedStore } from "./event-feed-store.js";
import type {
  CreateOrderOutcome,
  IdempotencyClaim,
  NewSalesOrder,
  OrderChangeRecord,
  OrderEventRecord,
  OrderFilter,
  OrderMove,
  OrderMoveOutcome,
  OrderPage,
  PartnerKeyRecord,
  PartnerRecord,
  PartnerStatus,
  SalesOrderRecord,
  SignatureVersion,
  SigningKeyRecord,
} from "./records.js";
import type { RequestLogStore } from "./request-log-store.js";
import type { TeamStore } from "./team-store.js";
import type { NonceClaim, TenantStore } from "./tenant-store.js";
import type { TwoFactorStore } from "./two-factor-store.js";
import type { WebhookStore } from "./webhook-store.js";

/**
 * The one door to persistence. Routes and services depend on this interface only; every method
 * is async so a networked database (PostgreSQL) implements it unchanged. Times are Unix
 * milliseconds.
 */

export type * from "./records.js";

export interface Store {
  readonly kind: string;
  /** Tenants, users, vocabulary overrides, login throttle (tenant-store.ts). */
  readonly tenants: TenantStore;
  /** Webhook endpoints, their delivery queue and attempts (webhook-store.ts). */
  readonly webhooks: WebhookStore;
  /** The outbox and tenant signals as the live event streams read them (event-feed-store.ts). */
  readonly events: EventFeedStore;
  /** The audit trail (audit-store.ts). */
  readonly audit: AuditStore;
  /** Team management: roles, disabling, set-password links (team-store.ts). */
  readonly team: TeamStore;
  /** The console's server sessions (console-session-store.ts). */
  readonly consoleSessions: ConsoleSessionStore;
  /** Tenant users' second factor and the tenants' policy (two-factor-store.ts). */
  readonly twoFactor: TwoFactorStore;
  /** Partners' refused requests (request-log-store.ts). */
  readonly requestLog: RequestLogStore;
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
   * mismatch), or its request's replay-guard `nonce` is stored (request_replayed). The key is
   * looked at first, so an exact retry with its key replays. The nonce is stored in the order's
   * own transaction and only with the order: a request whose order did not commit may come
   * again. Resolves only once the order is durable.
   */
  createOrder(
    order: NewSalesOrder,
    idempotency?: IdempotencyClaim,
    nonce?: NonceClaim,
  ): Promise<CreateOrderOutcome>;
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
