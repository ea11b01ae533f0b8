import type { FastifyInstance } from "fastify";
import { ORDER_STATUSES } from "../domain/orders/lifecycle.js";
import { tenantOverview } from "../domain/orders/overview.js";
import { enveloped, problemResponses } from "../http/schemas.js";
import type { Clock } from "../lib/clock.js";
import type { TenantStore } from "../store/tenant-store.js";
import type { UserAuthenticator } from "./authenticate.js";
import { requireUser, USER_SECURITY, userOf } from "./guard.js";

/** The longest window the overview sums: the tallies keep every day, the page shows 30. */
export const OVERVIEW_MAX_DAYS = 90;

const OVERVIEW_QUERY = {
  type: "object",
  additionalProperties: false,
  properties: {
    days: {
      type: "integer",
      minimum: 1,
      maximum: OVERVIEW_MAX_DAYS,
      default: 30,
      description: "How many UTC days, today included",
    },
  },
} as const;

const COUNTS = Object.fromEntries(ORDER_STATUSES.map((s) => [s, { type: "integer" }]));

const OVERVIEW = {
  type: "object",
  required: ["time_zone", "days", "from", "to", "awaiting", "per_day", "per_partner", "amounts"],
  properties: {
    time_zone: { type: "string", enum: ["UTC"], description: "The days are UTC days" },
    days: { type: "integer" },
    from: { type: "string", format: "date", description: "First day of the window" },
    to: { type: "string", format: "date", description: "Last day of the window (today)" },
    awaiting: {
      type: "object",
      required: ["status", "count"],
      description: "Orders of any day waiting for staff to accept or reject them",
      properties: { status: { type: "string" }, count: { type: "integer" } },
    },
    per_day: {
      type: "array",
      description:
        "Every day of the window, oldest first: orders created that day by current status",
      items: {
        type: "object",
        required: ["date", "total", ...ORDER_STATUSES],
        properties: {
          date: { type: "string", format: "date" },
          total: { type: "integer" },
          ...COUNTS,
        },
      },
    },
    per_partner: {
      type: "array",
      description:
        "Orders created in the window per partner, most first (partners with none left out)",
      items: {
        type: "object",
        required: ["partner", "partner_name", "orders"],
        properties: {
          partner: { type: "string", description: "The partner's client_id" },
          partner_name: { type: "string" },
          orders: { type: "integer" },
        },
      },
    },
    amounts: {
      type: "array",
      description:
        "Per currency, the orders created in the window that are not rejected or cancelled and the sum of their " +
        "totals, each order's total rounded once to the currency's decimals (an order with an unpriced line adds 0)",
      items: {
        type: "object",
        required: ["currency", "decimals", "orders", "amount"],
        properties: {
          currency: { type: ["string", "null"], description: "ISO 4217; null: orders without one" },
          decimals: { type: "integer", description: "The currency's decimals (minor units)" },
          orders: { type: "integer" },
          amount: {
            type: "string",
            description: "Exact decimal with `decimals` places, e.g. 1234.50",
          },
        },
      },
    },
  },
} as const;

export interface TenantOverviewRoutesOptions {
  store: Pick<TenantStore, "orderTallies">;
  now: Clock;
  authenticator: UserAuthenticator;
}

/** /v1/tenant/overview: the console's home page figures, from the daily order tallies. */
export async function tenantOverviewRoutes(
  app: FastifyInstance,
  { store, now, authenticator }: TenantOverviewRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);
  app.get<{ Querystring: { days: number } }>(
    "/v1/tenant/overview",
    {
      schema: {
        tags: ["Tenant orders"],
        summary: "Orders at a glance: awaiting action, per day and status, per partner, amounts",
        description:
          "Every member and admin of the tenant. Counts the orders the tenant's partners created in the last " +
          "`days` UTC days (today included) from daily tallies kept with each create and status move, so it " +
          "costs the same for a thousand orders as for a million; never another tenant's orders.",
        security: USER_SECURITY,
        querystring: OVERVIEW_QUERY,
        response: { 200: enveloped(OVERVIEW), ...problemResponses(400, 401) },
      },
    },
    async (request) => ({
      data: await tenantOverview(store, now, userOf(request).tenant.id, request.query.days),
    }),
  );
}
