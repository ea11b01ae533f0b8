/**
 * A partner's webhook endpoint and one delivery attempt, as the tenant API answers them: the
 * gateway's own view types (type-only imports, nothing of the gateway ships in the bundle).
 */
export type {
  AttemptView as Attempt,
  EndpointView as Endpoint,
} from "../../../../packages/gateway/src/domain/webhooks/endpoint-admin.js";
