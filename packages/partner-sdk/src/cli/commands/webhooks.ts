import { signWebhook } from "../../webhooks/sign.js";
import { verifyWebhook } from "../../webhooks/verify.js";
import { type CliIo, EXIT, output, UsageError } from "../io.js";
import { parse, readLocalBytes, readLocalFile, str, type Values } from "../options.js";
import { ENDPOINT_SUBCOMMANDS, webhookEndpointsCommand } from "./webhook-endpoints.js";

const WEBHOOKS_HELP = `Usage: orderline-partner webhooks <verify|sign> [options]

  verify --header 'HEADER' [--file BODY | stdin] [--tolerance 300]
                  checks a delivery as a receiver must: a v1 signature of the secret over
                  "<t>.<body bytes>" and t within the tolerance (seconds) of now; prints the
                  event, or exits 1 with the reason
  sign [--file BODY | stdin] [--timestamp T]
                  prints an Orderline-Signature header for a body, to test a receiver with

  --header 'HEADER'     the Orderline-Signature value ("Orderline-Signature: " in front is fine)
  --file BODY           the body's exact bytes (default: standard input)
  --secret SECRET       the endpoint's whsec_ secret; repeat for several (a rotation)
  --secret-file FILE    one secret per line; or ORDERLINE_WEBHOOK_SECRET in the environment
                        (prefer these: a flag is visible in the shell history and to ps)
  --json                the event (or the header) as JSON; errors as {"error": {...}} on stdout

Exit codes: 0 verified (or signed); 1 the delivery does not verify; 2 usage.

Your own endpoints: orderline-partner webhooks create|list|get|update|delete|rotate-secret|
deliveries|resend|test (orderline-partner webhooks create --help for their options).
`;

const OPTIONS = {
  header: { type: "string" },
  file: { type: "string" },
  secret: { type: "string", multiple: true },
  "secret-file": { type: "string" },
  tolerance: { type: "string" },
  timestamp: { type: "string" },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

function secretsOf(io: CliIo, values: Values): string[] {
  const flags = (values.secret as unknown as string[] | undefined) ?? [];
  const file = str(values, "secret-file");
  const fromFile =
    file === undefined
      ? []
      : readLocalFile(io, file, "secret file")
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter((line) => line !== "");
  const fromEnv = io.env.ORDERLINE_WEBHOOK_SECRET?.trim();
  const secrets = [...flags, ...fromFile];
  if (secrets.length === 0 && fromEnv) secrets.push(fromEnv);
  if (secrets.length === 0) {
    throw new UsageError(
      "Missing the endpoint secret: --secret, --secret-file or ORDERLINE_WEBHOOK_SECRET.",
    );
  }
  return secrets;
}

async function bodyOf(io: CliIo, values: Values): Promise<Uint8Array> {
  const file = str(values, "file");
  return file === undefined ? io.stdin() : readLocalBytes(io, file, "body file");
}

/** A whole number of seconds from a flag. */
function seconds(values: Values, name: string): number | undefined {
  const text = str(values, name);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`--${name} must be whole seconds.`);
  return Number(text);
}

async function verifyCommand(io: CliIo, values: Values): Promise<number> {
  const header = str(values, "header")?.replace(/^\s*orderline-signature\s*:/i, "");
  if (header === undefined)
    throw new UsageError(`webhooks verify needs --header.\n\n${WEBHOOKS_HELP}`);
  const secrets = secretsOf(io, values);
  const tolerance = seconds(values, "tolerance");
  const event = verifyWebhook({
    payload: await bodyOf(io, values),
    header,
    secrets,
    ...(tolerance === undefined ? {} : { toleranceSeconds: tolerance }),
  });
  output(
    io,
    values.json === true,
    event,
    `Verified ${event.id} (${event.type}, created ${event.created_at}).\n${JSON.stringify(event, null, 2)}\n`,
  );
  return EXIT.ok;
}

async function signCommand(io: CliIo, values: Values): Promise<number> {
  const secrets = secretsOf(io, values);
  const timestamp = seconds(values, "timestamp");
  const header = signWebhook({
    payload: await bodyOf(io, values),
    secrets,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
  output(io, values.json === true, { header_name: "Orderline-Signature", header }, `${header}\n`);
  return EXIT.ok;
}

export async function webhooksCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if ((ENDPOINT_SUBCOMMANDS as readonly string[]).includes(sub ?? ""))
    return webhookEndpointsCommand(sub as string, rest, io);
  const { values } = parse(rest, OPTIONS, WEBHOOKS_HELP);
  if (values.help || sub === "--help" || sub === "-h") {
    io.stdout(WEBHOOKS_HELP);
    return EXIT.ok;
  }
  if (sub === "verify") return verifyCommand(io, values);
  if (sub === "sign") return signCommand(io, values);
  throw new UsageError(
    `${sub === undefined ? "Missing subcommand" : `Unknown subcommand '${sub}'`}.\n\n${WEBHOOKS_HELP}`,
  );
}
