import type { FastifyInstance } from "fastify";
import type { AuditTrail } from "../domain/audit/trail.js";
import { auditCsv, auditEventView } from "../domain/audit/views.js";
import { instantMillis } from "../domain/orders/list-filter.js";
import { RFC3339 } from "../domain/orders/schemas.js";
import { decodeCursor, encodeCursor } from "../domain/orders/service.js";
import { problemResponses } from "../http/schemas.js";
import type { AuditFilter } from "../store/audit-store.js";
import type { UserAuthenticator } from "./authenticate.js";
import { requireRole, requireUser, USER_SECURITY, userOf } from "./guard.js";

/** At most this many rows in one CSV export (the newest, with the same filters). */
const AUDIT_EXPORT_MAX = 10_000;

const NAME = { type: "string", minLength: 1, maxLength: 254 } as const;

const FILTERS = {
  actor: {
    ...NAME,
    description: "Only events by this actor: a user id or email, a client_id, cli:<name>",
  },
  action: { ...NAME, description: "Only events of this action (e.g. `user_invited`)" },
  subject_type: {
    type: "string",
    enum: ["partner", "partner_key", "webhook_endpoint", "user", "vocabulary", "order"],
    description: "Only events about this kind of subject",
  },
  subject_id: { ...NAME, description: "Only events about this subject (its id)" },
  from: { type: "string", pattern: RFC3339, description: "Only events at or after this instant" },
  to: { type: "string", pattern: RFC3339, description: "Only events before this instant" },
} as const;

interface AuditQuery {
  limit: number;
  cursor?: string;
  actor?: string;
  action?: string;
  subject_type?: string;
  subject_id?: string;
  from?: string;
  to?: string;
}

const EVENT = {
  type: "object",
  required: ["id", "at", "actor", "action", "subject", "details", "source_address"],
  properties: {
    id: { type: "string" },
    at: { type: "string", format: "date-time" },
    actor: {
      type: "object",
      required: ["kind", "id", "label", "name"],
      properties: {
        kind: { type: "string", enum: ["user", "partner", "operator", "system"] },
        id: { type: "string" },
        label: { type: ["string", "null"], description: "A user's email when it happened" },
        name: {
          type: ["string", "null"],
          description: "A user's display name when it happened (null: none set; show the label)",
        },
      },
    },
    action: { type: "string" },
    subject: {
      type: ["object", "null"],
      required: ["type", "id"],
      properties: { type: { type: "string" }, id: { type: "string" } },
    },
    details: { type: "object", additionalProperties: true },
    source_address: { type: ["string", "null"] },
  },
} as const;

function filterOf(q: Omit<AuditQuery, "limit" | "cursor">): AuditFilter {
  const f: AuditFilter = {};
  if (q.actor !== undefined)
    f.actor = q.actor.trim().toLowerCase().includes("@")
      ? q.actor.trim().toLowerCase()
      : q.actor.trim();
  if (q.action !== undefined) f.action = q.action;
  if (q.subject_type !== undefined) f.subjectType = q.subject_type;
  if (q.subject_id !== undefined) f.subjectId = q.subject_id;
  if (q.from !== undefined) f.from = instantMillis("from", q.from);
  if (q.to !== undefined) f.to = instantMillis("to", q.to);
  return f;
}

/**
 * /v1/tenant/audit-events: the tenant's audit trail for its admins (the Activity page), newest
 * first, keyset-paged and filtered; `/export` answers the same filters as CSV. The tenant comes
 * from the token, so no query can reach another tenant's events.
 */
export async function tenantAuditRoutes(
  app: FastifyInstance,
  { audit, authenticator }: { audit: AuditTrail; authenticator: UserAuthenticator },
): Promise<void> {
  requireUser(app, authenticator);

  app.get<{ Querystring: AuditQuery }>(
    "/v1/tenant/audit-events",
    {
      schema: {
        tags: ["Tenant activity"],
        summary: "The tenant's audit events, newest first (tenant admins)",
        description:
          "Who did what to which partner, key, webhook endpoint, user or vocabulary set, when and from " +
          "where. Paged with `limit` and `cursor` (the previous page's `next_cursor`); the filters combine. " +
          "Kept for GATEWAY_AUDIT_RETENTION_SECONDS (default 365 days).",
        security: USER_SECURITY,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            limit: { type: "integer", minimum: 1, maximum: 100, default: 50 },
            cursor: { type: "string", minLength: 1, maxLength: 200 },
            ...FILTERS,
          },
        },
        response: {
          200: {
            type: "object",
            required: ["data", "next_cursor"],
            properties: {
              data: { type: "array", items: EVENT },
              next_cursor: {
                type: ["string", "null"],
                description: "Pass as ?cursor= for the next (older) page",
              },
            },
          },
          ...problemResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const context = userOf(request);
      requireRole(context, "admin", "read the activity log");
      const { cursor, limit } = request.query;
      const page = await audit.page(context.tenant.id, {
        limit,
        filter: filterOf(request.query),
        ...(cursor === undefined ? {} : { beforeSeq: decodeCursor(cursor) }),
      });
      return {
        data: page.events.map(auditEventView),
        next_cursor: page.nextBeforeSeq === null ? null : encodeCursor(page.nextBeforeSeq),
      };
    },
  );

  app.get<{ Querystring: Omit<AuditQuery, "limit" | "cursor"> }>(
    "/v1/tenant/audit-events/export",
    {
      schema: {
        tags: ["Tenant activity"],
        summary: "The tenant's audit events as CSV (tenant admins)",
        description: `The filters of the listing; at most the newest ${AUDIT_EXPORT_MAX} events, newest first, as text/csv (RFC 4180, a header line; a cell starting with = + - @ gets a leading ').`,
        security: USER_SECURITY,
        querystring: { type: "object", additionalProperties: false, properties: FILTERS },
        produces: ["text/csv"],
        response: {
          200: { description: "CSV", content: { "text/csv": { schema: { type: "string" } } } },
          ...problemResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const context = userOf(request);
      requireRole(context, "admin", "export the activity log");
      const page = await audit.page(context.tenant.id, {
        limit: AUDIT_EXPORT_MAX,
        filter: filterOf(request.query),
      });
      reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="activity.csv"')
        .header("cache-control", "no-store");
      return auditCsv(page.events.map(auditEventView));
    },
  );
}
