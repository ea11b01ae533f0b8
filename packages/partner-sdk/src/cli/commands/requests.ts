import { createPartnerClient } from "../../client.js";
import type { RefusedRequest } from "../../self-service-types.js";
import { type CliIo, EXIT, output, UsageError } from "../io.js";
import { CONNECTION_HELP, CONNECTION_OPTIONS, clientOptionsOf, parse, str } from "../options.js";

const REQUESTS_HELP = `Usage: orderline-partner requests --failed [--limit N]

  Your own refused requests of the last 7 days, newest first (N 1–100, default 50): time,
  method, path, status, error code and request id, and for a signature failure the
  string-to-sign the gateway expected with its hints. Only refusals are kept.

${CONNECTION_HELP}`;

function entryText(r: RefusedRequest): string {
  const lines = [
    `${r.at}  ${r.method} ${r.path}  ${r.status} ${r.code}  request id ${r.request_id}`,
  ];
  if (r.detail) lines.push(`  ${r.detail}`);
  const expected = r.expected ?? {};
  if (typeof expected.string_to_sign === "string") {
    // JSON quoting shows a newline or a stray space exactly where it is.
    lines.push(
      `  expected string-to-sign (version ${expected.signature_version ?? "?"}): ${JSON.stringify(expected.string_to_sign)}`,
    );
  }
  for (const hint of expected.hints ?? []) lines.push(`  hint ${hint.code}: ${hint.detail}`);
  if (expected.server_time !== undefined) lines.push(`  server time: ${expected.server_time}`);
  if (Array.isArray(expected.missing_headers))
    lines.push(`  missing headers: ${expected.missing_headers.join(", ")}`);
  return `${lines.join("\n")}\n`;
}

/** `orderline-partner requests --failed`: the partner's request log. */
export async function requestsCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parse(
    args,
    {
      ...CONNECTION_OPTIONS,
      failed: { type: "boolean", default: true },
      limit: { type: "string" },
    },
    REQUESTS_HELP,
  );
  if (values.help) {
    io.stdout(REQUESTS_HELP);
    return EXIT.ok;
  }
  const text = str(values, "limit");
  const limit = text === undefined ? undefined : Number(text);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 100))
    throw new UsageError("--limit must be an integer from 1 to 100.");
  const client = createPartnerClient(clientOptionsOf(io, values));
  const entries = await client.requestLog.failed(limit === undefined ? {} : { limit });
  output(
    io,
    values.json === true,
    { data: entries },
    entries.map(entryText).join("") || "No refused requests in the last 7 days.\n",
  );
  return EXIT.ok;
}
