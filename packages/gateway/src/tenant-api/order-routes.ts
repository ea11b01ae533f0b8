import type { FastifyInstance } from "fastify";
import { type OrderAction, TRANSITIONS } from "../domain/orders/lifecycle.js";
import {
  IF_MATCH_HEADERS,
  ORDER_ID_PARAMS,
  REASON_OPTIONAL_BODY,
  REASON_REQUIRED_BODY,
} from "../domain/orders/schemas.js";
import { etagOf, type OrderService } from "../domain/orders/service.js";
import type { TenantListQuery } from "../domain/orders/tenant-orders.js";
import {
  TENANT_ORDER_LIST_QUERY,
  TENANT_ORDER_LIST_RESPONSE,
  TENANT_ORDER_RESPONSE,
} from "../domain/orders/tenant-schemas.js";
import { problemResponses } from "../http/schemas.js";
import type { UserAuthenticator } from "./authenticate.js";
import {
  auditTenantChange,
  NO_QUERY,
  requireRole,
  requireUser,
  USER_SECURITY,
  userOf,
} from "./guard.js";

/** Members handle orders day to day; undoing an accepted commitment (cancel) is for admins. */
export const ADMIN_ONLY: ReadonlySet<OrderAction> = new Set(["cancel"]);

interface TenantOrderRoutesOptions {
  orders: OrderService;
  authenticator: UserAuthenticator;
}

/** /v1/orders: a tenant's users read the orders its partners created and move their status. */
export async function tenantOrderRoutes(
  app: FastifyInstance,
  { orders, authenticator }: TenantOrderRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);

  app.get<{ Querystring: TenantListQuery }>(
    "/v1/orders",
    {
      schema: {
        tags: ["Tenant orders"],
        summary: "The sales orders of the tenant's partners, newest first, searched and counted",
        description:
          "Every member and admin of the tenant reads the orders sent by the partners that belong to it; " +
          "never another tenant's. Paged and filtered like the partner listing (`limit`, `cursor`, `status`, " +
          "`created_from`, `created_to`, `purchase_order_no`), plus a free-text search `q`, a `partner` " +
          "(client_id) and `sort`. Each order carries its partner's name, line totals and its total; " +
          "`total` counts the matching orders (up to 1,000).",
        security: USER_SECURITY,
        querystring: TENANT_ORDER_LIST_QUERY,
        response: { 200: TENANT_ORDER_LIST_RESPONSE, ...problemResponses(400, 401) },
      },
    },
    async (request) => orders.listForTenant(userOf(request).tenant.id, request.query),
  );

  app.get<{ Params: { id: string } }>(
    "/v1/orders/:id",
    {
      schema: {
        tags: ["Tenant orders"],
        summary: "One sales order of the tenant's partners",
        description: "Another tenant's order answers 404 exactly like a missing one.",
        security: USER_SECURITY,
        params: ORDER_ID_PARAMS,
        querystring: NO_QUERY,
        response: { 200: TENANT_ORDER_RESPONSE, ...problemResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const order = await orders.getForTenant(userOf(request).tenant.id, request.params.id);
      reply.header("etag", etagOf(order.version));
      return { data: order };
    },
  );

  for (const action of Object.keys(TRANSITIONS) as OrderAction[]) {
    const { from, to, reasonRequired } = TRANSITIONS[action];
    app.post<{
      Params: { id: string };
      Body: { reason?: string | null } | undefined;
      Headers: { "if-match"?: string };
    }>(
      `/v1/orders/:id/${action}`,
      {
        // No body is an empty one: accept and fulfil need nothing but the URL.
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags: ["Tenant orders"],
          summary: `Move an order from ${from.join(" or ")} to ${to}`,
          description:
            `${ADMIN_ONLY.has(action) ? "Tenant admins only" : "Every member and admin of the tenant"}. ` +
            `${reasonRequired ? "A reason is required" : "A reason is optional"} and kept in the history. ` +
            "With If-Match, a stale ETag gets 412 and changes nothing; from any other status, 409 names the current status and the allowed next ones.",
          security: USER_SECURITY,
          params: ORDER_ID_PARAMS,
          querystring: NO_QUERY,
          headers: IF_MATCH_HEADERS,
          body: reasonRequired ? REASON_REQUIRED_BODY : REASON_OPTIONAL_BODY,
          response: {
            200: TENANT_ORDER_RESPONSE,
            ...problemResponses(400, 401, 403, 404, 409, 412, 415),
          },
        },
      },
      async (request, reply) => {
        const context = userOf(request);
        if (ADMIN_ONLY.has(action)) requireRole(context, "admin", `${action} orders`);
        const body = request.body;
        const reason = body && typeof body === "object" ? (body.reason ?? null) : null;
        const order = await orders.moveForTenant(
          context,
          request.params.id,
          action,
          reason,
          request.headers["if-match"],
        );
        // Kept in the audit trail like a bulk move (orders.bulk_moved), so the Activity page
        // shows every move a person made, one order or many.
        await auditTenantChange(
          request,
          context,
          "orders.moved",
          {
            action,
            order_id: order.id,
            order_number: order.order_number,
            partner_name: order.partner_name,
            status: order.status,
          },
          `order ${order.order_number} moved by ${action}`,
          { type: "order", id: order.id },
        );
        reply.header("etag", etagOf(order.version));
        return { data: order };
      },
    );
  }
}
