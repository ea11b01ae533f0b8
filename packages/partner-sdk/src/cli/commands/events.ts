import { forwardEvent, forwardTarget } from "../../listen.js";
import { type CliIo, EXIT, output, UsageError } from "../io.js";
import { KEPT_EVENTS, listenStatePath, readListenState } from "../listen-state.js";
import { CONNECTION_OPTIONS, parse, str } from "../options.js";

const EVENTS_HELP = `Usage: orderline-partner events resend EVT_ID [--forward-to URL] [--state FILE] [--json]

Sends an event \`listen\` forwarded before to your local receiver again, with the same body and
event id, signed with listen's secret: to try a receiver fix on a real event. listen keeps the
last ${KEPT_EVENTS} events it forwarded in its state file (see orderline-partner listen --help).
To deliver an event to a webhook endpoint again, use
orderline-partner webhooks resend ENDPOINT_ID EVT_ID.

  --forward-to URL      the receiver (default: the one the last listen forwarded to)
  --state FILE          listen's state file (default: the one listen uses for
                        ORDERLINE_CLIENT_ID / --client-id at ORDERLINE_BASE_URL / --base-url)
`;

/** `orderline-partner events resend`: a forwarded event to the local receiver again. */
export async function eventsCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      ...CONNECTION_OPTIONS,
      "forward-to": { type: "string" },
      state: { type: "string" },
      secret: { type: "string" },
    },
    EVENTS_HELP,
  );
  if (values.help) {
    io.stdout(EVENTS_HELP);
    return EXIT.ok;
  }
  const [action, eventId, ...extra] = positionals;
  if (action !== "resend" || eventId === undefined || extra.length > 0)
    throw new UsageError(`Expected: events resend EVT_ID.\n\n${EVENTS_HELP}`);
  const explicit = str(values, "state");
  const clientId = str(values, "client-id") ?? io.env.ORDERLINE_CLIENT_ID;
  const baseUrl = str(values, "base-url") ?? io.env.ORDERLINE_BASE_URL;
  if (explicit === undefined && (!clientId || !baseUrl))
    throw new UsageError(
      "Missing --state FILE, or --client-id and --base-url (ORDERLINE_CLIENT_ID, ORDERLINE_BASE_URL) naming listen's state.",
    );
  const file = listenStatePath(io, explicit, clientId ?? "", baseUrl ?? "");
  const state = readListenState(file);
  const event = state.events.find((e) => e.id === eventId);
  if (event === undefined)
    throw new UsageError(
      `Event ${eventId} is not among the last ${KEPT_EVENTS} events listen forwarded (${file}). ` +
        "To deliver it to a webhook endpoint again: orderline-partner webhooks resend ENDPOINT_ID EVT_ID.",
    );
  const forwardTo = str(values, "forward-to") ?? state.forward_to;
  if (!forwardTo) throw new UsageError("Missing --forward-to URL (listen has not run yet).");
  let target: URL;
  try {
    target = forwardTarget(forwardTo);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const sent = await forwardEvent(target, event, { secret: str(values, "secret") ?? state.secret });
  const ok = sent.status !== null && sent.status >= 200 && sent.status < 300;
  output(
    io,
    values.json === true,
    {
      id: event.id,
      type: event.type,
      forward_to: forwardTo,
      status: sent.status,
      ...(sent.error ? { error: sent.error } : {}),
    },
    `${event.type}  ${event.id}  -> ${sent.status ?? `not delivered (${sent.error})`}\n`,
  );
  return ok ? EXIT.ok : EXIT.refused;
}
