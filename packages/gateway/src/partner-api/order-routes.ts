import type { FastifyInstance } from "fastify";
import { filterOf, type ListQuery } from "../domain/orders/list-filter.js";
import {
  CREATE_ORDER_BODY,
  CREATED_RESPONSE,
  IDEMPOTENCY_HEADERS,
  MULTILINE_ORDER_FIELDS,
  ORDER_ID_PARAMS,
  ORDER_LIST_QUERY,
  ORDER_LIST_RESPONSE,
  ORDER_RESPONSE,
  REASON_REQUIRED_BODY,
} from "../domain/orders/schemas.js";
import { type CreateOrderBody, etagOf, type OrderService } from "../domain/orders/service.js";
import { SIGNED_REQUEST_SECURITY } from "../http/openapi.js";
import { problemResponses } from "../http/schemas.js";
import {
  partnerOf,
  requestNonceOf,
  requireSignedPartner,
  type SignedRoutesOptions,
} from "./signed-routes.js";

type OrderRoutesOptions = {
  orders: OrderService;
} & SignedRoutesOptions;

const AUTH_ERRORS = [400, 401, 403, 429] as const;

/** /api/v1/sales-orders: every operation is a signed partner request. */
export async function orderRoutes(
  app: FastifyInstance,
  { orders, ...signed }: OrderRoutesOptions,
): Promise<void> {
  requireSignedPartner(app, signed);

  app.post<{ Body: CreateOrderBody; Headers: { "idempotency-key"?: string } }>(
    "/api/v1/sales-orders",
    {
      // The nonce commits with the order, or not at all (OrderService.create).
      config: { multilineText: MULTILINE_ORDER_FIELDS, nonceInTransaction: true },
      schema: {
        tags: ["Sales Orders"],
        summary: "Create a new sales order",
        description:
          "Creates a sales order. A purchase_order_no already used by the partner gets 409 naming the existing " +
          "order. With an Idempotency-Key, a retry with the same body (signed afresh, or the exact request " +
          "sent again) replays the first answer with `Idempotent-Replayed: true`; the exact request sent again " +
          "without a key gets 409 request_replayed, and then its order exists.",
        security: SIGNED_REQUEST_SECURITY,
        headers: IDEMPOTENCY_HEADERS,
        body: CREATE_ORDER_BODY,
        response: {
          201: CREATED_RESPONSE,
          ...problemResponses(...AUTH_ERRORS, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const { order, replayed } = await orders.create(
        partnerOf(request),
        request.body,
        request.headers["idempotency-key"],
        requestNonceOf(request),
      );
      if (replayed) reply.header("idempotent-replayed", "true");
      // The number each partner was handed, in the log: after restoring an older backup the
      // highest one logged since is what `orders number-floor --at N` needs (docs/deploy.md).
      else
        request.log.info(
          {
            event: "order_created",
            order_id: order.id,
            order_number: order.order_number,
            client_id: order.client_id,
          },
          "order created",
        );
      reply.header("location", `/api/v1/sales-orders/${order.id}`);
      return reply.code(201).send({ message: "Sales order created", data: order });
    },
  );

  app.get<{ Querystring: ListQuery }>(
    "/api/v1/sales-orders",
    {
      schema: {
        tags: ["Sales Orders"],
        summary: "List the partner's sales orders, newest first",
        description:
          "Filters combine: `status`, `created_from` (inclusive), `created_to` (exclusive), " +
          "`purchase_order_no` (a lookup: at most one order). The cursor keeps the filters' place; send the same filters with it.",
        security: SIGNED_REQUEST_SECURITY,
        querystring: ORDER_LIST_QUERY,
        response: { 200: ORDER_LIST_RESPONSE, ...problemResponses(...AUTH_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      return orders.list(partnerOf(request), q.limit, q.cursor, filterOf(q));
    },
  );

  app.get<{ Params: { id: string } }>(
    "/api/v1/sales-orders/:id",
    {
      schema: {
        tags: ["Sales Orders"],
        summary: "Get one of the partner's sales orders",
        security: SIGNED_REQUEST_SECURITY,
        params: ORDER_ID_PARAMS,
        response: { 200: ORDER_RESPONSE, ...problemResponses(...AUTH_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      const order = await orders.get(partnerOf(request), request.params.id);
      reply.header("etag", etagOf(order.version));
      return { data: order };
    },
  );

  app.post<{ Params: { id: string }; Body: { reason: string } }>(
    "/api/v1/sales-orders/:id/cancel",
    {
      schema: {
        tags: ["Sales Orders"],
        summary: "Cancel an order the tenant has not accepted yet",
        description:
          "Only while the order is `received`; afterwards 409 names its status. The reason is kept in the order's history.",
        security: SIGNED_REQUEST_SECURITY,
        params: ORDER_ID_PARAMS,
        body: REASON_REQUIRED_BODY,
        response: { 200: ORDER_RESPONSE, ...problemResponses(...AUTH_ERRORS, 404, 409, 415) },
      },
    },
    async (request, reply) => {
      const order = await orders.cancelForPartner(
        partnerOf(request),
        request.params.id,
        request.body.reason,
      );
      reply.header("etag", etagOf(order.version));
      return { data: order };
    },
  );
}
