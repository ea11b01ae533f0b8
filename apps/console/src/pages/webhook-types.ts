/**
 * A partner's webhook endpoint and one delivery attempt, as the tenant API answers them: the
 * gateway's contract (`@orderline/gateway/contract`, type-only).
 */
export type {
  AttemptView as Attempt,
  EndpointView as Endpoint,
} from "@orderline/gateway/contract";
