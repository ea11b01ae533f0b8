import { createPartnerClient, type OrderFilters } from "../../client.js";
import type { OrderStatus, SalesOrder, SalesOrderDetail, SalesOrderInput } from "../../types.js";
import { type CliIo, EXIT, output, UsageError } from "../io.js";
import {
  CONNECTION_HELP,
  CONNECTION_OPTIONS,
  clientOptionsOf,
  parse,
  readLocalFile,
  str,
  type Values,
} from "../options.js";

const ORDERS_HELP = `Usage: orderline-partner orders <subcommand> [options]

  create --file ORDER.json [--idempotency-key KEY]
                        create a sales order from a JSON file; the Idempotency-Key (a fresh UUID
                        unless given) is reused on every retry, so a retry never creates twice
  get ID                one order by its id, with its history
  list [--limit N] [--cursor C] [--all] [filters]
                        the partner's orders, newest first: one page, or with --all every page
  cancel ID --reason TEXT
                        withdraw an order the tenant has not accepted yet (status received);
                        later the gateway refuses with order_transition_invalid (exit 1)

Filters of list, combined:
  --status S            received, accepted, rejected, fulfilled or cancelled
  --created-from T      created at or after T (RFC 3339, e.g. 2026-11-01T00:00:00Z)
  --created-to T        created before T
  --purchase-order-no P the order with this purchase order number

${CONNECTION_HELP}`;

function summary(order: SalesOrder): string {
  const lines = order.products.length;
  return `${order.order_number}  ${order.id}  ${order.status.padEnd(9)}  ${order.created_at}  ${order.customer_code}  ${lines} line${lines === 1 ? "" : "s"}${order.purchase_order_no ? `  PO ${order.purchase_order_no}` : ""}`;
}

/** One line per change, oldest first: when, from → to, who, why. */
function historyText(order: SalesOrderDetail): string {
  return `History:\n${order.history
    .map(
      (c) =>
        `  ${c.at}  ${c.from ?? "(new)"} → ${c.to}  by ${c.actor.type === "partner" ? (c.actor.name ?? "partner") : "the tenant"}${c.reason ? `: ${c.reason}` : ""}\n`,
    )
    .join("")}`;
}

function readOrder(io: CliIo, file: string): SalesOrderInput {
  const text = readLocalFile(io, file, "order file");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new UsageError(`${file} must hold one JSON object (the order).`);
  }
  return parsed as SalesOrderInput;
}

function filtersOf(values: Values): OrderFilters {
  const status = str(values, "status");
  const createdFrom = str(values, "created-from");
  const createdTo = str(values, "created-to");
  const purchaseOrderNo = str(values, "purchase-order-no");
  // The gateway checks the values (400 validation_failed names the one it refuses).
  return {
    ...(status === undefined ? {} : { status: status as OrderStatus }),
    ...(createdFrom === undefined ? {} : { createdFrom }),
    ...(createdTo === undefined ? {} : { createdTo }),
    ...(purchaseOrderNo === undefined ? {} : { purchaseOrderNo }),
  };
}

export async function ordersCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parse(
    rest,
    {
      ...CONNECTION_OPTIONS,
      file: { type: "string" },
      "idempotency-key": { type: "string" },
      limit: { type: "string" },
      cursor: { type: "string" },
      all: { type: "boolean", default: false },
      reason: { type: "string" },
      status: { type: "string" },
      "created-from": { type: "string" },
      "created-to": { type: "string" },
      "purchase-order-no": { type: "string" },
    },
    ORDERS_HELP,
  );
  if (values.help || sub === "--help" || sub === "-h") {
    io.stdout(ORDERS_HELP);
    return EXIT.ok;
  }
  if (sub === undefined || !["create", "get", "list", "cancel"].includes(sub)) {
    throw new UsageError(
      `${sub === undefined ? "Missing subcommand" : `Unknown subcommand '${sub}'`}.\n\n${ORDERS_HELP}`,
    );
  }
  const json = values.json === true;
  if (sub === "create") {
    const file = str(values, "file");
    if (file === undefined) throw new UsageError(`orders create needs --file.\n\n${ORDERS_HELP}`);
    const order = readOrder(io, file);
    const key = str(values, "idempotency-key");
    const client = createPartnerClient(clientOptionsOf(io, values));
    const created = await client.salesOrders.create(
      order,
      key === undefined ? {} : { idempotencyKey: key },
    );
    output(io, json, { data: created }, `Created ${summary(created)}\n`);
    return EXIT.ok;
  }
  if (sub === "get") {
    const id = positionals[0];
    if (id === undefined) throw new UsageError(`orders get needs an order ID.\n\n${ORDERS_HELP}`);
    const client = createPartnerClient(clientOptionsOf(io, values));
    const order = await client.salesOrders.get(id);
    output(
      io,
      json,
      { data: order },
      `${summary(order)}\n${JSON.stringify(order.products, null, 2)}\n${historyText(order)}`,
    );
    return EXIT.ok;
  }
  if (sub === "cancel") {
    const id = positionals[0];
    const reason = str(values, "reason");
    if (id === undefined || reason === undefined || reason.trim() === "") {
      throw new UsageError(`orders cancel needs an order ID and --reason.\n\n${ORDERS_HELP}`);
    }
    const client = createPartnerClient(clientOptionsOf(io, values));
    const order = await client.salesOrders.cancel(id, { reason });
    output(io, json, { data: order }, `Cancelled ${summary(order)}\n${historyText(order)}`);
    return EXIT.ok;
  }
  const filters = filtersOf(values);
  const limitText = str(values, "limit");
  const limit = limitText === undefined ? undefined : Number(limitText);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 100)) {
    throw new UsageError("--limit must be an integer from 1 to 100.");
  }
  const client = createPartnerClient(clientOptionsOf(io, values));
  if (values.all) {
    const orders: SalesOrder[] = [];
    for await (const order of client.salesOrders.iterate({
      ...filters,
      ...(limit === undefined ? {} : { pageSize: limit }),
    })) {
      orders.push(order);
    }
    // The shape of one page, as the API answers it: all pages, so no next cursor.
    output(
      io,
      json,
      { data: orders, next_cursor: null },
      orders.map((o) => `${summary(o)}\n`).join("") || "No orders.\n",
    );
    return EXIT.ok;
  }
  const cursor = str(values, "cursor");
  const page = await client.salesOrders.list({
    ...filters,
    ...(limit === undefined ? {} : { limit }),
    ...(cursor === undefined ? {} : { cursor }),
  });
  output(
    io,
    json,
    page,
    `${page.data.map((o) => `${summary(o)}\n`).join("") || "No orders.\n"}${page.next_cursor ? `More: --cursor ${page.next_cursor}${Object.keys(filters).length ? " (with the same filters)" : ""}\n` : ""}`,
  );
  return EXIT.ok;
}
