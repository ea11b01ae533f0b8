import { PartnerApiError, PartnerNetworkError, WebhookSignatureError } from "../errors.js";
import { eventsCommand } from "./commands/events.js";
import { keygenCommand } from "./commands/keygen.js";
import { listenCommand } from "./commands/listen.js";
import { loginCommand } from "./commands/login.js";
import { ordersCommand } from "./commands/orders.js";
import { requestsCommand } from "./commands/requests.js";
import { signCommand } from "./commands/sign.js";
import { webhooksCommand } from "./commands/webhooks.js";
import { type CliIo, EXIT, UsageError } from "./io.js";
import { CONNECTION_HELP } from "./options.js";

export const HELP = `Usage: orderline-partner <command> [options]   (--help after a command for its own)

  keygen                  new RSA-2048 key pair: private key to a 0600 file, public key printed
  sign                    print the string-to-sign and signature for a timestamp (debugging)
  login                   log in and print the token and its expiry
  orders create|get|list|cancel
                          create a sales order from a JSON file, read, list or cancel orders
  webhooks verify|sign    check a webhook delivery's signature; sign a body to test a receiver
  webhooks create|list|get|update|delete|rotate-secret|deliveries|resend|test
                          manage your own webhook endpoints; test fires a webhook.test event
  requests --failed       your refused requests of the last 7 days, with what was expected
  listen --forward-to URL forward the partner's events, signed like webhooks, to a local receiver;
                          retries, resumes after a restart, keeps its signing secret
  events resend EVT_ID    send an event listen forwarded to the local receiver again

Exit codes: 0 done; 1 the gateway refused the request (its error code is printed), or a
            webhook delivery does not verify (the reason is printed);
            2 usage or local configuration; 3 the gateway could not be reached.

${CONNECTION_HELP}`;

const COMMANDS: Record<string, (args: string[], io: CliIo) => number | Promise<number>> = {
  keygen: keygenCommand,
  sign: signCommand,
  login: loginCommand,
  orders: ordersCommand,
  webhooks: webhooksCommand,
  requests: requestsCommand,
  listen: listenCommand,
  events: eventsCommand,
};

/** A refusal for a person: the code and detail, or every refused field on its own line. */
function refusalText(error: PartnerApiError): string {
  const head = `orderline-partner: the gateway refused the request (${error.status} ${error.code})`;
  const fields = error.fieldErrors;
  const body =
    fields.length === 0
      ? `: ${error.detail}\n`
      : `: ${fields.length === 1 ? "1 field is" : `${fields.length} fields are`} not valid\n${fields
          .map((e) => `  ${e.in ? `${e.in} ` : ""}${e.pointer}: ${e.message}\n`)
          .join("")}`;
  return `${head}${body}${error.requestId ? `  request id: ${error.requestId}\n` : ""}`;
}

/** Runs one command line; returns the exit code. Errors are printed, never thrown. */
export async function run(args: string[], io: CliIo): Promise<number> {
  const json = args.includes("--json");
  const fail = (code: number, error: Record<string, unknown>, text: string) => {
    if (json) io.stdout(`${JSON.stringify({ error }, null, 2)}\n`);
    else io.stderr(text);
    return code;
  };
  const [command, ...rest] = args;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    io.stdout(HELP);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  const handler = COMMANDS[command];
  if (handler === undefined) {
    return fail(
      EXIT.usage,
      { code: "usage", detail: `Unknown command '${command}'.` },
      `orderline-partner: unknown command '${command}'.\n\n${HELP}`,
    );
  }
  try {
    return await handler(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      return fail(
        EXIT.usage,
        { code: "usage", detail: error.message.split("\n\n")[0] },
        `orderline-partner: ${error.message}\n`,
      );
    }
    if (error instanceof PartnerApiError) {
      return fail(
        EXIT.refused,
        {
          code: error.code,
          status: error.status,
          detail: error.detail,
          request_id: error.requestId ?? null,
          problem: error.problem,
        },
        refusalText(error),
      );
    }
    if (error instanceof WebhookSignatureError) {
      return fail(
        EXIT.refused,
        { code: error.reason, detail: error.message },
        `orderline-partner: the delivery does not verify (${error.reason}): ${error.message}\n`,
      );
    }
    if (error instanceof PartnerNetworkError) {
      return fail(
        EXIT.unreachable,
        { code: "unreachable", detail: error.message },
        `orderline-partner: ${error.message}\n`,
      );
    }
    throw error;
  }
}
