import type { KeyObject } from "node:crypto";
import type { PartnerApiError } from "../errors.js";
import { type SignatureVersion, signatureHeaders } from "../signing.js";
import { failureOf, isSkewRefusal, type Session } from "./session.js";
import type { GatewayResponse, OutgoingRequest, Transport } from "./transport.js";

/** One signed call to the gateway; resolves to a 2xx answer, otherwise throws the typed error. */
export type SignedCall = (
  method: string,
  target: string,
  body?: string,
  extraHeaders?: Record<string, string>,
) => Promise<GatewayResponse>;

interface SignedCallerOptions {
  transport: Transport;
  session: Session;
  privateKey: KeyObject;
  clientId: string;
  nextTimestamp: () => string;
  signatureVersion: SignatureVersion;
}

interface SignedCaller {
  call: SignedCall;
  /** The signature version in use: 1 turns into 2 for good on `signature_version_required`. */
  readonly version: SignatureVersion;
}

/** Which one-time correction a refusal asks for, if it is one not made yet for this call. */
type Correction = "renew_token" | "fix_clock" | "sign_v2";

function correctionFor(
  error: PartnerApiError,
  done: Set<Correction>,
  version: SignatureVersion,
): Correction | undefined {
  if (error.code === "token_expired" && !done.has("renew_token")) return "renew_token";
  const serverTime = error.problem.server_time;
  if (isSkewRefusal(error) && !done.has("fix_clock") && typeof serverTime === "number") {
    return "fix_clock";
  }
  if (error.code === "signature_version_required" && version === 1) return "sign_v2";
  return undefined;
}

/** Signed calls with their one-time corrections: token renewal, clock, signature version. */
export function signedCaller(options: SignedCallerOptions): SignedCaller {
  const { transport, session, privateKey, clientId, nextTimestamp } = options;
  let version = options.signatureVersion;

  /** Signs one attempt afresh: its own token, timestamp and signature. */
  const request = (
    method: string,
    target: string,
    body: string | undefined,
    extraHeaders: Record<string, string>,
    token: string,
  ): OutgoingRequest => {
    const { headers } = signatureHeaders(privateKey, version, {
      clientId,
      timestamp: nextTimestamp(),
      method,
      target,
      ...(body === undefined ? {} : { body }),
    });
    return {
      method,
      target,
      headers: { authorization: `Bearer ${token}`, ...headers, ...extraHeaders },
      ...(body === undefined ? {} : { body }),
    };
  };

  const call: SignedCall = async (method, target, body, extraHeaders = {}) => {
    const done = new Set<Correction>();
    // Over the corrections too: the typed error tells whether any earlier attempt was sent.
    let attempts = 0;
    for (;;) {
      let token = "";
      const response = await transport.send(async () => {
        token = await session.token();
        return request(method, target, body, extraHeaders, token);
      });
      if (response.status < 300) return response;
      attempts += response.attempts;
      const error = failureOf({ ...response, attempts });
      const correction = correctionFor(error, done, version);
      if (correction === undefined) throw error;
      done.add(correction);
      if (correction === "renew_token") await session.expired(token);
      else if (correction === "fix_clock")
        transport.learnServerSeconds(error.problem.server_time as number);
      else version = 2;
    }
  };

  return {
    call,
    get version() {
      return version;
    },
  };
}
