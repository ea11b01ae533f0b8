import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { csvConventions, csvLine, csvRows } from "../domain/orders/csv.js";
import type { OrderService } from "../domain/orders/service.js";
import type { TenantFilterQuery } from "../domain/orders/tenant-orders.js";
import { TENANT_FILTER_PROPERTIES } from "../domain/orders/tenant-schemas.js";
import type { UserContext } from "../domain/users/user-context.js";
import { problemResponses } from "../http/schemas.js";
import type { UserAuthenticator } from "./authenticate.js";
import { requireUser, USER_SECURITY, userOf } from "./guard.js";

/** An export holds at most this many orders (read 100 at a time, never all at once). */
const EXPORT_MAX = 50_000;

const EXPORT_QUERY = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...TENANT_FILTER_PROPERTIES,
    language: {
      type: "string",
      minLength: 2,
      maxLength: 35,
      pattern: "^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$",
      description:
        "The language of the header row and the number conventions (de and id: ';' and a decimal comma); the user's profile language by default",
    },
  },
} as const;

type ExportQuery = TenantFilterQuery & { language?: string };

/** The file: a BOM (so spreadsheets read UTF-8), the header row, then each order's lines. */
async function* csvOf(
  orders: OrderService,
  context: UserContext,
  query: ExportQuery,
): AsyncGenerator<string> {
  const conventions = csvConventions(query.language ?? context.user.language);
  yield `\uFEFF${csvLine(conventions.header, conventions)}`;
  for await (const page of orders.matchingForTenant(context.tenant.id, query, EXPORT_MAX))
    yield page.map((order) => csvRows(order, conventions)).join("");
}

interface TenantOrderExportRoutesOptions {
  orders: OrderService;
  authenticator: UserAuthenticator;
}

/** GET /v1/tenant/orders.csv: the filtered orders and their lines, streamed. */
export async function tenantOrderExportRoutes(
  app: FastifyInstance,
  { orders, authenticator }: TenantOrderExportRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);

  app.get<{ Querystring: ExportQuery }>(
    "/v1/tenant/orders.csv",
    {
      schema: {
        tags: ["Tenant orders"],
        summary: "The orders matching the listing filters as CSV, one row per order line",
        description:
          `Streamed page by page, at most ${EXPORT_MAX.toLocaleString("en")} orders, in the listing's order. ` +
          "`text/csv; charset=utf-8` with a byte-order mark and a header row in `language`. English: ',' " +
          "between cells and '.' in decimals; German and Indonesian: ';' and ','. Cells starting with = + - @ " +
          "(or a tab or carriage return) get a leading apostrophe so a spreadsheet never runs them as formulas.",
        security: USER_SECURITY,
        querystring: EXPORT_QUERY,
        response: {
          200: {
            description: "The CSV file",
            content: { "text/csv": { schema: { type: "string" } } },
          },
          ...problemResponses(400, 401),
        },
      },
    },
    async (request, reply) => {
      const context = userOf(request);
      const day = new Date().toISOString().slice(0, 10);
      reply
        .header("content-type", "text/csv; charset=utf-8; header=present")
        .header("content-disposition", `attachment; filename="orders-${day}.csv"`)
        .header("cache-control", "no-store");
      return reply.send(Readable.from(csvOf(orders, context, request.query)));
    },
  );
}
