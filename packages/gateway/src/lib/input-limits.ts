/**
 * The longest text the gateway accepts in the fields people type into the console. The route
 * schemas take their `maxLength` from here, and the console imports this module (package export
 * `@orderline/gateway/contract`) to show the same limits beside its fields: one number per field,
 * so the form and the API cannot disagree. Pure data: no imports, safe for a browser bundle.
 */
export const INPUT_LIMITS = {
  /** A sign-in email (RFC 5321's longest path). */
  email: 254,
  /** A partner's display name. */
  partnerName: 200,
  /** A tenant user's display name (characters, after trimming). */
  userName: 200,
  /** A partner's public key as PEM text. */
  publicKeyPem: 20_000,
  /** A webhook endpoint's URL. */
  webhookUrl: 2048,
  /** Why an order was rejected, cancelled, accepted or fulfilled. */
  orderReason: 500,
  /** A purchase order number (the orders filter and the partner API). */
  purchaseOrderNo: 64,
} as const;
