export {
  type CreateOptions,
  createPartnerClient,
  type ListOptions,
  type PartnerClient,
  type PartnerClientOptions,
} from "./client.js";
export { PartnerApiError, PartnerNetworkError, type Problem } from "./errors.js";
export type { TokenResponse } from "./lib/session.js";
export { retryAfterMs } from "./lib/transport.js";
export {
  bodyDigest,
  privateKeyOf,
  type SignatureVersion,
  type SignedMessage,
  signatureHeaders,
  signText,
  stringToSign,
  stringToSignV1,
  stringToSignV2,
} from "./signing.js";
export type { ProductInput, SalesOrder, SalesOrderInput, SalesOrderPage } from "./types.js";
