import type { FastifyInstance } from "fastify";
import { BULK_MAX, matchingIds, moveEach } from "../domain/orders/bulk.js";
import { type OrderAction, TRANSITIONS } from "../domain/orders/lifecycle.js";
import type { OrderService } from "../domain/orders/service.js";
import type { TenantFilterQuery } from "../domain/orders/tenant-orders.js";
import { TENANT_FILTER_PROPERTIES, TENANT_ORDER } from "../domain/orders/tenant-schemas.js";
import { PROBLEM_SCHEMA, problemResponses } from "../http/schemas.js";
import { ApiError } from "../problems/api-error.js";
import type { UserAuthenticator } from "./authenticate.js";
import { auditTenantChange, requireRole, requireUser, USER_SECURITY, userOf } from "./guard.js";
import { ADMIN_ONLY } from "./order-routes.js";

const { sort: _sort, ...FILTER_ONLY } = TENANT_FILTER_PROPERTIES;

const BULK_BODY = {
  type: "object",
  additionalProperties: false,
  required: ["action"],
  properties: {
    action: { type: "string", enum: Object.keys(TRANSITIONS) },
    reason: {
      type: "string",
      minLength: 1,
      maxLength: 500,
      pattern: "\\S",
      description: "One reason for every order (required to reject or cancel)",
    },
    ids: {
      type: "array",
      minItems: 1,
      maxItems: BULK_MAX,
      uniqueItems: true,
      items: { type: "string", minLength: 1, maxLength: 64 },
      description: `The orders to move, at most ${BULK_MAX}`,
    },
    filter: {
      type: "object",
      additionalProperties: false,
      properties: FILTER_ONLY,
      description: `Instead of ids: the orders matching these listing filters, newest first, at most ${BULK_MAX}`,
    },
  },
  oneOf: [{ required: ["ids"] }, { required: ["filter"] }],
} as const;

const BULK_RESPONSE = {
  type: "object",
  required: ["action", "results", "summary", "more_matching"],
  properties: {
    action: { type: "string" },
    results: {
      type: "array",
      items: {
        type: "object",
        required: ["id", "status", "outcome"],
        properties: {
          id: { type: "string" },
          status: { type: "integer", description: "What the single move would have answered" },
          outcome: { type: "string", enum: ["moved", "unchanged", "failed"] },
          order: TENANT_ORDER,
          problem: PROBLEM_SCHEMA,
        },
      },
    },
    summary: {
      type: "object",
      required: ["requested", "moved", "unchanged", "failed"],
      properties: {
        requested: { type: "integer" },
        moved: { type: "integer" },
        unchanged: { type: "integer" },
        failed: { type: "integer" },
      },
    },
    more_matching: { type: "boolean" },
  },
} as const;

interface BulkBody {
  action: OrderAction;
  reason?: string;
  ids?: string[];
  filter?: TenantFilterQuery;
}

interface TenantOrderBulkRoutesOptions {
  orders: OrderService;
  authenticator: UserAuthenticator;
}

/** POST /v1/tenant/orders/bulk: one move for many orders, each with its own result. */
export async function tenantOrderBulkRoutes(
  app: FastifyInstance,
  { orders, authenticator }: TenantOrderBulkRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);

  app.post<{ Body: BulkBody }>(
    "/v1/tenant/orders/bulk",
    {
      schema: {
        tags: ["Tenant orders"],
        summary: `Move up to ${BULK_MAX} orders at once (accept, reject, fulfil, cancel)`,
        description:
          "Each order is moved as its single move would (own transaction, history, event); the answer is 200 " +
          "with one result per order: `moved`, `unchanged` (already where the move leads, so a retried request " +
          "succeeds) or `failed` with the problem the single move would have answered (404, 409). `filter` " +
          `moves the first ${BULK_MAX} orders matching the listing filters; \`more_matching\` says more remain. ` +
          "Cancelling is for tenant admins.",
        security: USER_SECURITY,
        body: BULK_BODY,
        response: { 200: BULK_RESPONSE, ...problemResponses(400, 401, 403, 415) },
      },
    },
    async (request) => {
      const context = userOf(request);
      const { action, ids, filter } = request.body;
      if (ADMIN_ONLY.has(action)) requireRole(context, "admin", `${action} orders`);
      const reason = request.body.reason ?? null;
      if (TRANSITIONS[action].reasonRequired && reason === null) {
        throw new ApiError("validation_failed", `A reason is required to ${action} orders.`, {
          errors: [{ pointer: "/reason", message: "is required for this action" }],
        });
      }
      const chosen =
        ids === undefined
          ? await matchingIds(orders, context.tenant.id, filter ?? {})
          : { ids, more: false };
      const outcome = await moveEach(orders, context, chosen.ids, action, reason, chosen.more);
      // Awaited: the audit trail (team branch) keeps a row as well as the log line.
      await auditTenantChange(
        request,
        context,
        "orders.bulk_moved",
        {
          action,
          by: ids === undefined ? "filter" : "ids",
          ...outcome.summary,
          moved_ids: outcome.results.filter((r) => r.outcome === "moved").map((r) => r.id),
        },
        `${outcome.summary.moved} of ${outcome.summary.requested} orders moved by ${action}`,
      );
      return outcome;
    },
  );
}
