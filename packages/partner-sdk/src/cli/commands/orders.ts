import { createPartnerClient } from "../../client.js";
import type { SalesOrder, SalesOrderInput } from "../../types.js";
import { type CliIo, EXIT, output, UsageError } from "../io.js";
import {
  CONNECTION_HELP,
  CONNECTION_OPTIONS,
  clientOptionsOf,
  parse,
  readLocalFile,
  str,
} from "../options.js";

export const ORDERS_HELP = `Usage: orderline-partner orders <subcommand> [options]

  create --file ORDER.json [--idempotency-key KEY]
                        create a sales order from a JSON file; the Idempotency-Key (a fresh UUID
                        unless given) is reused on every retry, so a retry never creates twice
  get ID                one order by its id
  list [--limit N] [--cursor C] [--all]
                        the partner's orders, newest first: one page, or with --all every page

Cancelling orders comes once the order lifecycle lands in the gateway.

${CONNECTION_HELP}`;

function summary(order: SalesOrder): string {
  const lines = order.products.length;
  return `${order.order_number}  ${order.id}  ${order.status.padEnd(9)}  ${order.created_at}  ${order.customer_code}  ${lines} line${lines === 1 ? "" : "s"}${order.purchase_order_no ? `  PO ${order.purchase_order_no}` : ""}`;
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
    },
    ORDERS_HELP,
  );
  if (values.help || sub === "--help" || sub === "-h") {
    io.stdout(ORDERS_HELP);
    return EXIT.ok;
  }
  if (sub === undefined || !["create", "get", "list"].includes(sub)) {
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
    output(io, json, created, `Created ${summary(created)}\n`);
    return EXIT.ok;
  }
  if (sub === "get") {
    const id = positionals[0];
    if (id === undefined) throw new UsageError(`orders get needs an order ID.\n\n${ORDERS_HELP}`);
    const client = createPartnerClient(clientOptionsOf(io, values));
    const order = await client.salesOrders.get(id);
    output(io, json, order, `${summary(order)}\n${JSON.stringify(order.products, null, 2)}\n`);
    return EXIT.ok;
  }
  const limitText = str(values, "limit");
  const limit = limitText === undefined ? undefined : Number(limitText);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 100)) {
    throw new UsageError("--limit must be an integer from 1 to 100.");
  }
  const client = createPartnerClient(clientOptionsOf(io, values));
  if (values.all) {
    const orders: SalesOrder[] = [];
    for await (const order of client.salesOrders.iterate(
      limit === undefined ? {} : { pageSize: limit },
    )) {
      orders.push(order);
    }
    output(io, json, orders, orders.map((o) => `${summary(o)}\n`).join("") || "No orders.\n");
    return EXIT.ok;
  }
  const cursor = str(values, "cursor");
  const page = await client.salesOrders.list({
    ...(limit === undefined ? {} : { limit }),
    ...(cursor === undefined ? {} : { cursor }),
  });
  output(
    io,
    json,
    page,
    `${page.data.map((o) => `${summary(o)}\n`).join("") || "No orders.\n"}${page.next_cursor ? `More: --cursor ${page.next_cursor}\n` : ""}`,
  );
  return EXIT.ok;
}
