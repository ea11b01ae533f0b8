import { createPartnerClient } from "../../client.js";
import { forwardTarget, listen, newListenSecret } from "../../listen.js";
import { type CliIo, EXIT, UsageError } from "../io.js";
import { CONNECTION_HELP, CONNECTION_OPTIONS, clientOptionsOf, parse, str } from "../options.js";

export const LISTEN_HELP = `Usage: orderline-partner listen --forward-to URL [--events TYPE,TYPE] [--json]

Opens the gateway's event stream for this partner and forwards each event to a receiver on
your machine (e.g. http://localhost:3000/webhooks), signed exactly like a webhook delivery with
a signing secret printed at the start: configure your receiver with it, and its verification
code works unchanged. Prints each event's type and id and the receiver's answer. Reconnects by
itself after a dropped connection, resuming after the last event (none lost, none twice).
Ctrl+C stops. The gateway never connects to your machine.

  --forward-to URL      where to POST each event (http or https)
  --events LIST         only these event types, e.g. order.created,order.cancelled

${CONNECTION_HELP}`;

const LISTEN_OPTIONS = {
  ...CONNECTION_OPTIONS,
  "forward-to": { type: "string" },
  events: { type: "string" },
} as const;

export async function listenCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parse(args, LISTEN_OPTIONS, LISTEN_HELP);
  if (values.help) {
    io.stdout(LISTEN_HELP);
    return EXIT.ok;
  }
  const forwardTo = str(values, "forward-to");
  if (forwardTo === undefined) throw new UsageError(`Missing --forward-to URL.\n\n${LISTEN_HELP}`);
  try {
    forwardTarget(forwardTo);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const events = str(values, "events")
    ?.split(",")
    .map((type) => type.trim())
    .filter((type) => type !== "");
  const json = values.json === true;
  const client = createPartnerClient(clientOptionsOf(io, values));
  await client.login(); // wrong credentials fail here, before anything is printed as ready
  const secret = newListenSecret();
  const stop = new AbortController();
  const forget = io.onInterrupt?.(() => stop.abort());
  const line = (value: Record<string, unknown>, text: string) =>
    io.stdout(json ? `${JSON.stringify(value)}\n` : text);
  line(
    { ready: true, forward_to: forwardTo, signing_secret: secret, events: events ?? ["*"] },
    `Ready: forwarding ${events?.join(", ") ?? "all events"} to ${forwardTo}\n` +
      `Signing secret of this session: ${secret}\n` +
      "(verify deliveries with it as with an endpoint's secret; Ctrl+C stops)\n",
  );
  try {
    await listen(client, {
      forwardTo,
      secret,
      signal: stop.signal,
      ...(events?.length ? { events } : {}),
      onForward: (r) =>
        line(
          { id: r.id, type: r.type, status: r.status, ...(r.error ? { error: r.error } : {}) },
          `${new Date().toISOString()}  ${r.type}  ${r.id}  -> ${r.status ?? `not delivered (${r.error})`}\n`,
        ),
      onConnection: (state) => {
        if (!state.connected && !stop.signal.aborted)
          io.stderr(
            `Connection to the gateway lost${state.error ? ` (${state.error.message})` : ""}; reconnecting…\n`,
          );
        else if (state.connected && state.resumed)
          io.stderr("Reconnected; resuming after the last event.\n");
      },
    });
  } finally {
    forget?.();
  }
  line({ stopped: true }, "Stopped.\n");
  return EXIT.ok;
}
