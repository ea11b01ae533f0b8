import { priceFault } from "../lib/money.js";
import { textFaultsIn } from "../lib/text.js";
import type {
  NewSalesOrder,
  OrderPage,
  PartnerKeyRecord,
  PartnerRecord,
  PartnerStatus,
  ProductLine,
  SalesOrderRecord,
  SigningKeyRecord,
} from "./records.js";

/** Table rows as both SQL stores return them (snake_case columns), and their records. */

export interface PartnerRow {
  id: string;
  client_id: string;
  name: string;
  secret_hash: string;
  secret_version: number;
  status: PartnerStatus;
  created_at: number;
  updated_at: number;
  previous_secret_hash: string | null;
  previous_secret_until: number | null;
  signature_version: number;
}

export interface PartnerKeyRow {
  id: string;
  partner_id: string;
  fingerprint: string;
  public_key_pem: string;
  bits: number;
  created_at: number;
  revoked_at: number | null;
}

export interface SigningKeyRow {
  kid: string;
  alg: string;
  public_jwk: string;
  private_key_sealed: string;
  created_at: number;
  /** NULL only in rows written before migration 012 by an older build. */
  signs_from: number | null;
  retired_at: number | null;
}

export const toPartner = (r: PartnerRow): PartnerRecord => ({
  id: r.id,
  clientId: r.client_id,
  name: r.name,
  secretHash: r.secret_hash,
  secretVersion: r.secret_version,
  status: r.status,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  previousSecretHash: r.previous_secret_hash,
  previousSecretUntil: r.previous_secret_until,
  signatureVersion: Number(r.signature_version) === 2 ? 2 : 1,
});

export const toPartnerKey = (r: PartnerKeyRow): PartnerKeyRecord => ({
  id: r.id,
  partnerId: r.partner_id,
  fingerprint: r.fingerprint,
  publicKeyPem: r.public_key_pem,
  bits: r.bits,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export const toSigningKey = (r: SigningKeyRow): SigningKeyRecord => ({
  kid: r.kid,
  alg: r.alg,
  publicJwk: r.public_jwk,
  privateKeySealed: r.private_key_sealed,
  createdAt: r.created_at,
  signsFrom: r.signs_from ?? r.created_at,
  retiredAt: r.retired_at,
});

export interface OrderRow {
  seq: number;
  /** NULL for orders stored before per-partner numbers: their number is their seq. */
  partner_seq: number | null;
  id: string;
  partner_id: string;
  purchase_order_no: string | null;
  customer_code: string;
  site_code: string;
  sales_name: string;
  address: string;
  /** JSON text on SQLite; jsonb on PostgreSQL, which the driver hands over parsed. */
  products: string | ProductLine[];
  currency: string | null;
  status: string;
  created_at: number;
  version: number;
  updated_at: number | null;
}

export const toOrder = (r: OrderRow): SalesOrderRecord => ({
  seq: r.seq,
  partnerSeq: r.partner_seq ?? r.seq,
  id: r.id,
  partnerId: r.partner_id,
  purchaseOrderNo: r.purchase_order_no,
  customerCode: r.customer_code,
  siteCode: r.site_code,
  salesName: r.sales_name,
  address: r.address,
  currency: r.currency,
  products: typeof r.products === "string" ? JSON.parse(r.products) : r.products,
  status: r.status,
  createdAt: r.created_at,
  version: r.version,
  updatedAt: r.updated_at ?? r.created_at,
});

/**
 * An order's own members, copied one by one into a fresh object: object spreads with more
 * members after them took V8's slow object-building path, a few µs per create.
 */
const orderMembersOf = (o: NewSalesOrder): NewSalesOrder => ({
  id: o.id,
  partnerId: o.partnerId,
  purchaseOrderNo: o.purchaseOrderNo,
  currency: o.currency ?? null,
  customerCode: o.customerCode,
  siteCode: o.siteCode,
  salesName: o.salesName,
  address: o.address,
  products: o.products,
  status: o.status,
  createdAt: o.createdAt,
});

/** A just-inserted order as a record: version 1, unchanged since its creation. */
export const createdOrder = (
  o: NewSalesOrder,
  number: { seq: number; partnerSeq: number },
): SalesOrderRecord =>
  Object.assign(orderMembersOf(o), {
    seq: number.seq,
    partnerSeq: number.partnerSeq,
    version: 1,
    updatedAt: o.createdAt,
  });

/** A page of `limit` orders from `limit + 1` rows read newest first: the extra row says "more". */
export function pageOf(rows: OrderRow[], limit: number): OrderPage {
  const orders = rows.slice(0, limit).map(toOrder);
  const last = orders.at(-1);
  return { orders, nextBeforeSeq: rows.length > limit && last ? last.seq : null };
}

/** An order's column values in the order of the INSERT statements of both stores. */
export const orderParams = (o: NewSalesOrder) => [
  o.id,
  o.partnerId,
  o.purchaseOrderNo,
  o.customerCode,
  o.siteCode,
  o.salesName,
  o.address,
  JSON.stringify(o.products),
  o.status,
  o.createdAt,
  o.currency ?? null,
];

/**
 * The order as both stores write and return it (no currency is null). Refuses text that no
 * store can keep as sent (NUL, lone surrogates) and prices with more than 4 decimal places
 * before the order joins a group-commit batch, where it would fail the batch statement for
 * every order in it. The HTTP boundary refuses both first; this is the store's own guard.
 */
export function storableOrder(o: NewSalesOrder): NewSalesOrder {
  const [fault] = mayBreakTextRule(o)
    ? textFaultsIn(
        {
          purchase_order_no: o.purchaseOrderNo,
          customer_code: o.customerCode,
          site_code: o.siteCode,
          sales_name: o.salesName,
          address: o.address,
          products: o.products,
          currency: o.currency,
        },
        () => true,
      )
    : [];
  if (fault) throw new Error(`Order ${o.id} not stored: ${fault.pointer} ${fault.message}.`);
  o.products.forEach((line, i) => {
    const price = line.unit_price === undefined ? undefined : priceFault(line.unit_price);
    if (price) throw new Error(`Order ${o.id} not stored: /products/${i}/unit_price ${price}.`);
  });
  return orderMembersOf(o);
}

/** What a string must hold to break the text rule anywhere: a control character or a surrogate. */
const MAY_BREAK = /[\p{Cc}\ud800-\udfff]/u;

/** A string that cannot break the rule, or a number, boolean or null (an object is looked into). */
const plain = (value: unknown): boolean =>
  typeof value === "string" ? !MAY_BREAK.test(value) : typeof value !== "object" || value === null;

/**
 * Whether any text of the order might break the rule: a regular-expression test per string, so
 * the walk that says where and why (textFaultsIn) runs only when one might.
 */
function mayBreakTextRule(o: NewSalesOrder): boolean {
  const fields = [
    o.purchaseOrderNo,
    o.customerCode,
    o.siteCode,
    o.salesName,
    o.address,
    o.currency,
  ];
  if (!fields.every(plain)) return true;
  for (const line of o.products as unknown as Record<string, unknown>[])
    for (const key in line) if (!plain(key) || !plain(line[key])) return true;
  return false;
}
