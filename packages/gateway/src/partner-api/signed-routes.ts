import { createHash } from "node:crypto";
import { pipeline, Transform } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { PartnerView } from "../domain/partners/directory.js";
import type { RequestLog } from "../domain/partners/request-log.js";
import type { ClientRateLimiter } from "../http/rate-limit.js";
import { routeConfigOf } from "../http/route-config.js";
import { bodyTextOf } from "../http/text-boundary.js";
import { inSpan } from "../observability/tracing.js";
import type { NonceClaim } from "../store/tenant-store.js";
import {
  refusedClientOf,
  type SignedRequest,
  type SignedRequestAuthenticator,
} from "./authenticate.js";
import { EMPTY_BODY_SHA256 } from "./request-signature.js";

export interface SignedRoutesOptions {
  authenticator: SignedRequestAuthenticator;
  /** Per-client_id request limits, checked once the caller is authenticated. */
  rateLimiter?: ClientRateLimiter;
  /** Where refusals of identified partners are written (GET /api/v1/request-log). */
  requestLog?: RequestLog;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route stores its replay-guard nonce in its own transaction (requestNonceOf hands it
     * over) instead of the guard claiming it before the handler runs.
     */
    nonceInTransaction?: boolean;
  }
}

const partners = new WeakMap<FastifyRequest, PartnerView>();
/** The replay-guard nonce of a request on a route that stores it in its own transaction. */
const nonces = new WeakMap<FastifyRequest, NonceClaim>();
/** The client_id of a request refused after its token verified. */
const refusedClients = new WeakMap<FastifyRequest, string>();
/** SHA-256 of each request's body bytes as received, for signature version 2. */
const bodyDigests = new WeakMap<FastifyRequest, string>();

/** The authenticated partner of a request on a route behind requireSignedPartner. */
export function partnerOf(request: FastifyRequest): PartnerView {
  const partner = partners.get(request);
  if (!partner) throw new Error("partner route reached without authentication");
  return partner;
}

/**
 * The replay-guard nonce the route's transaction must store (absent: the replay guard is off,
 * or the method is a read).
 */
export function requestNonceOf(request: FastifyRequest): NonceClaim | undefined {
  return nonces.get(request);
}

/** Problem members that say what the gateway expected; none is a secret. */
const EXPECTED_MEMBERS = [
  "signature_version",
  "string_to_sign",
  "hints",
  "server_time",
  "missing_headers",
  "required_signature_version",
  "errors",
];

/** The request log entry of a refusal answered with `payload` (problem+json). */
function refusalDetails(payload: unknown): { code: string; details: Record<string, unknown> } {
  let problem: Record<string, unknown> = {};
  try {
    const text = Buffer.isBuffer(payload) ? payload.toString("utf8") : payload;
    if (typeof text === "string") problem = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: logged with its status only.
  }
  const details: Record<string, unknown> = {};
  if (typeof problem.detail === "string") details.detail = problem.detail;
  for (const member of EXPECTED_MEMBERS)
    if (problem[member] !== undefined) details[member] = problem[member];
  return { code: typeof problem.code === "string" ? problem.code : "unknown", details };
}

function logRefusal(
  requestLog: RequestLog,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): void {
  const clientId = partners.get(request)?.clientId ?? refusedClients.get(request);
  if (clientId === undefined) return;
  const { code, details } = refusalDetails(payload);
  requestLog.record({
    clientId,
    method: request.method,
    path: (request.raw.url ?? request.url).split("?")[0] ?? "",
    status: reply.statusCode,
    code,
    requestId: String(request.id),
    details,
  });
}

/**
 * Puts every route of the plugin behind a signed partner request (token, signature headers,
 * timestamp, signature; see SignedRequestAuthenticator), checked before anything about the
 * request is looked at, then the partner's rate limit. Refusals of an identified partner go to
 * its request log, queued after the answer is made (successes cost one status comparison).
 */
export function requireSignedPartner(app: FastifyInstance, options: SignedRoutesOptions): void {
  const { authenticator, rateLimiter, requestLog } = options;
  // The body is hashed as it streams to the JSON parser, so version 2 signs the exact bytes sent
  // without a second copy of the body. A request whose body is not read hashes as empty. Only
  // requests that name a signature version are tapped: version 1 (no header) signs no body, and
  // the stream stage cost a version-1 create about a third of its CPU (bisected).
  app.addHook("preParsing", (request, _reply, payload, done) => {
    if (request.headers["x-signature-version"] === undefined) return done(null, payload);
    const hash = createHash("sha256");
    const tap = new Transform({
      transform(chunk, _encoding, callback) {
        hash.update(chunk);
        callback(null, chunk);
      },
      flush(callback) {
        bodyDigests.set(request, hash.digest("hex"));
        callback();
      },
    });
    done(
      null,
      pipeline(payload, tap, () => {}),
    );
  });

  // preValidation runs before body validation: an unauthenticated caller learns nothing about the body rules.
  app.addHook("preValidation", async (request) => {
    const signed: SignedRequest = {
      method: request.method,
      target: request.raw.url ?? request.url,
      bodySha256: bodyDigests.get(request) ?? EMPTY_BODY_SHA256,
      bodyText: bodyTextOf(request),
      address: request.ip,
    };
    if (routeConfigOf(request).nonceInTransaction)
      signed.nonceInTransaction = (nonce: NonceClaim) => nonces.set(request, nonce);
    let partner: PartnerView;
    try {
      partner = await inSpan("signature.verify", () =>
        authenticator.authenticate(request.headers, signed),
      );
    } catch (error) {
      const clientId = refusedClientOf(error);
      if (clientId !== undefined) refusedClients.set(request, clientId);
      throw error;
    }
    partners.set(request, partner);
    // Counted after authentication, so nobody can spend another partner's quota.
    await rateLimiter?.check("orders", partner.clientId, request.log);
  });

  if (requestLog !== undefined) {
    app.addHook("onSend", (request, reply, payload, done) => {
      if (reply.statusCode >= 400) logRefusal(requestLog, request, reply, payload);
      done(null, payload);
    });
  }
}
