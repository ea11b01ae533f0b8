import type { FastifyInstance } from "fastify";
import { problemResponses } from "../http/schemas.js";
import type { UserAuthenticator } from "../users/authenticate.js";
import { NO_QUERY, requireUser, USER_SECURITY, userOf } from "../users/guard.js";
import { LIST_QUERY, ORDER_ID_PARAMS, ORDER_LIST_RESPONSE, ORDER_RESPONSE } from "./schemas.js";
import type { OrderService } from "./service.js";

export interface TenantOrderRoutesOptions {
  orders: OrderService;
  authenticator: UserAuthenticator;
}

/** /v1/orders: a tenant's users read the orders its partners created (read-only). */
export async function tenantOrderRoutes(
  app: FastifyInstance,
  { orders, authenticator }: TenantOrderRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);

  app.get<{ Querystring: { limit: number; cursor?: string } }>(
    "/v1/orders",
    {
      schema: {
        tags: ["Tenant orders"],
        summary: "The sales orders of the tenant's partners, newest first",
        description:
          "Every member and admin of the tenant reads the orders sent by the partners that belong to it; " +
          "never another tenant's. Paged like the partner listing (`limit`, `cursor`).",
        security: USER_SECURITY,
        querystring: LIST_QUERY,
        response: { 200: ORDER_LIST_RESPONSE, ...problemResponses(400, 401) },
      },
    },
    async (request) =>
      orders.listForTenant(userOf(request).tenant.id, request.query.limit, request.query.cursor),
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
        response: { 200: ORDER_RESPONSE, ...problemResponses(400, 401, 404) },
      },
    },
    async (request) => ({
      data: await orders.getForTenant(userOf(request).tenant.id, request.params.id),
    }),
  );
}
