import type { FastifyInstance } from "fastify";
import { MAX_LISTED, type RequestLog } from "../domain/partners/request-log.js";
import { SIGNED_REQUEST_SECURITY } from "../http/openapi.js";
import { REFUSED_REQUEST } from "../http/request-log-schemas.js";
import { problemResponses } from "../http/schemas.js";
import { partnerOf, requireSignedPartner, type SignedRoutesOptions } from "./signed-routes.js";

type RequestLogRoutesOptions = { requestLog: RequestLog } & SignedRoutesOptions;

/**
 * GET /api/v1/request-log: the calling partner's own refused requests of the last 7 days, newest
 * first (written only for requests whose token verified, so each belongs to a known partner).
 */
export async function requestLogRoutes(
  app: FastifyInstance,
  { requestLog, ...signed }: RequestLogRoutesOptions,
): Promise<void> {
  requireSignedPartner(app, { ...signed, requestLog });
  app.get<{ Querystring: { outcome: "failed"; limit: number } }>(
    "/api/v1/request-log",
    {
      schema: {
        tags: ["Request log"],
        summary: "The partner's refused requests of the last 7 days, newest first",
        description:
          "Only refusals are kept (`outcome=failed`, the default), at most 500 per partner; a signature failure shows the string-to-sign the gateway expected and its hints. Never a secret, never another partner's request.",
        security: SIGNED_REQUEST_SECURITY,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            outcome: { type: "string", enum: ["failed"], default: "failed" },
            limit: { type: "integer", minimum: 1, maximum: MAX_LISTED, default: 50 },
          },
        },
        response: {
          200: {
            type: "object",
            required: ["data"],
            properties: { data: { type: "array", items: REFUSED_REQUEST } },
          },
          ...problemResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => ({
      data: await requestLog.list(partnerOf(request).clientId, request.query.limit),
    }),
  );
}
