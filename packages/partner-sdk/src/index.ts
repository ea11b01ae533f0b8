export {
  type CancelOptions,
  type CreateOptions,
  createPartnerClient,
  type IterateOptions,
  type ListOptions,
  type OrderFilters,
  type PartnerClient,
  type PartnerClientOptions,
} from "./client.js";
export {
  type FieldError,
  PartnerApiError,
  PartnerNetworkError,
  type Problem,
  WebhookSignatureError,
  type WebhookSignatureFailure,
} from "./errors.js";
export {
  type EventStreamOptions,
  parseEventStream,
  type StreamEvent,
} from "./lib/event-stream.js";
export type { TokenResponse } from "./lib/session.js";
export { retryAfterMs } from "./lib/transport.js";
export type { RequestLogCalls, WebhookEndpointCalls } from "./lib/webhook-endpoints.js";
export {
  type ForwardResult,
  forwardEvent,
  forwardTarget,
  type ListenOptions,
  listen,
  newListenSecret,
} from "./listen.js";
export type {
  CreatedWebhookEndpoint,
  RefusedRequest,
  RotatedWebhookSecret,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointChange,
  WebhookEndpointInput,
} from "./self-service-types.js";
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
export type {
  OrderChange,
  OrderStatus,
  ProductInput,
  SalesOrder,
  SalesOrderDetail,
  SalesOrderInput,
  SalesOrderPage,
} from "./types.js";
export { type SignWebhookOptions, signWebhook } from "./webhooks/sign.js";
export type { WebhookEvent, WebhookEventType, WebhookOrderChange } from "./webhooks/types.js";
export { type VerifyWebhookOptions, verifyWebhook } from "./webhooks/verify.js";
