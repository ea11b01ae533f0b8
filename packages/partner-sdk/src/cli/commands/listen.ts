import { createPartnerClient } from "../../client.js";
import { forwardTarget, listen } from "../../listen.js";
import { type CliIo, EXIT, UsageError } from "../io.js";
import {
  type ListenState,
  listenStatePath,
  readListenState,
  withForwarded,
  writeListenState,
} from "../listen-state.js";
import { CONNECTION_HELP, CONNECTION_OPTIONS, clientOptionsOf, parse, str } from "../options.js";

const LISTEN_HELP = `Usage: orderline-partner listen --forward-to URL [--events TYPE,TYPE] [--secret whsec_…]
                               [--state FILE] [--resume | --from-now] [--json]

Opens the gateway's event stream for this partner and forwards each event to a receiver on
your machine (e.g. http://localhost:3000/webhooks), signed exactly like a webhook delivery, so
your receiver's verification code works unchanged. Prints each event's type and id and the
receiver's answer. The gateway never connects to your machine. Ctrl+C stops.

Nothing is lost:
- an event your receiver does not take (down, no answer, or not 2xx) is sent again after 1, 2,
  4 … 30 s, until it does; the events after it wait, in order;
- a dropped connection to the gateway is opened again after the last event (none twice);
- the state file remembers the last event forwarded: the next listen resumes after it
  (--resume, the default), so events made while listen was stopped are forwarded then
  (the gateway keeps them 7 days); --from-now skips them;
- the signing secret is made once and kept in the state file: the same on every start, one per
  partner and gateway on this machine (or give your own with --secret).

  --forward-to URL      where to POST each event (http or https)
  --events LIST         only these event types, e.g. order.created,order.cancelled
  --secret whsec_…      sign with this secret instead of the kept one
  --state FILE          the state file (default: one per partner and gateway under
                        $ORDERLINE_STATE_DIR, else ~/.local/state/orderline/listen/)
  --resume              resume after the last forwarded event (the default)
  --from-now            forward only events from now on

orderline-partner events resend EVT_ID sends a forwarded event to the receiver again.

${CONNECTION_HELP}`;

const LISTEN_OPTIONS = {
  ...CONNECTION_OPTIONS,
  "forward-to": { type: "string" },
  events: { type: "string" },
  secret: { type: "string" },
  state: { type: "string" },
  resume: { type: "boolean", default: false },
  "from-now": { type: "boolean", default: false },
} as const;

const SECRET = /^whsec_[A-Za-z0-9_-]{16,}$/;

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
  if (values.resume && values["from-now"])
    throw new UsageError("--resume and --from-now exclude each other.");
  const givenSecret = str(values, "secret");
  if (givenSecret !== undefined && !SECRET.test(givenSecret))
    throw new UsageError(
      "--secret must look like an endpoint's secret: whsec_ and 16 or more letters, digits, _ or -.",
    );
  const events = str(values, "events")
    ?.split(",")
    .map((type) => type.trim())
    .filter((type) => type !== "");
  const json = values.json === true;
  const options = clientOptionsOf(io, values);
  const file = listenStatePath(io, str(values, "state"), options.clientId, options.baseUrl);
  let state: ListenState = readListenState(file);
  const secret = givenSecret ?? state.secret;
  const resumeFrom = values["from-now"] ? undefined : (state.last_event_id ?? undefined);
  const client = createPartnerClient(options);
  await client.login(); // wrong credentials fail here, before anything is printed as ready
  state = {
    ...state,
    forward_to: forwardTo,
    ...(values["from-now"] ? { last_event_id: null } : {}),
  };
  writeListenState(file, state);
  const stop = new AbortController();
  const forget = io.onInterrupt?.(() => stop.abort());
  const line = (value: Record<string, unknown>, text: string) =>
    io.stdout(json ? `${JSON.stringify(value)}\n` : text);
  line(
    {
      ready: true,
      forward_to: forwardTo,
      signing_secret: secret,
      secret_source: givenSecret !== undefined ? "flag" : "state",
      state_file: file,
      resumed_after: resumeFrom ?? null,
      events: events ?? ["*"],
    },
    `Ready: forwarding ${events?.join(", ") ?? "all events"} to ${forwardTo}\n` +
      `Signing secret: ${secret}\n` +
      (givenSecret !== undefined
        ? "(from --secret; verify deliveries with it as with an endpoint's secret; Ctrl+C stops)\n"
        : `(kept in ${file}: the same on every start; verify deliveries with it as with an endpoint's secret; Ctrl+C stops)\n`) +
      (resumeFrom !== undefined
        ? `Resuming after ${resumeFrom}: events since the last run are forwarded first.\n`
        : ""),
  );
  try {
    await listen(client, {
      forwardTo,
      secret,
      signal: stop.signal,
      ...(resumeFrom !== undefined ? { lastEventId: resumeFrom } : {}),
      ...(events?.length ? { events } : {}),
      onForward: (r) =>
        line(
          {
            id: r.id,
            type: r.type,
            status: r.status,
            attempt: r.attempt,
            ...(r.error ? { error: r.error } : {}),
            ...(r.retryInMs !== undefined ? { retry_in_ms: r.retryInMs } : {}),
          },
          `${new Date().toISOString()}  ${r.type}  ${r.id}  -> ${r.status ?? `not delivered (${r.error})`}` +
            `${r.retryInMs !== undefined ? `; again in ${Math.round(r.retryInMs / 1000)} s (attempt ${r.attempt + 1})` : ""}\n`,
        ),
      onPosition: (id, event) => {
        state = event ? withForwarded(state, event) : { ...state, last_event_id: id };
        writeListenState(file, state);
      },
      onConnection: (connection) => {
        if (
          connection.error &&
          "code" in connection.error &&
          connection.error.code === "last_event_id_invalid"
        )
          io.stderr(
            "The gateway no longer keeps the last event forwarded (events are kept 7 days); forwarding from now.\n",
          );
        else if (!connection.connected && !stop.signal.aborted)
          io.stderr(
            `Connection to the gateway lost${connection.error ? ` (${connection.error.message})` : ""}; reconnecting…\n`,
          );
        else if (connection.connected && connection.resumed)
          io.stderr("Reconnected; resuming after the last event.\n");
      },
    });
  } finally {
    forget?.();
  }
  line({ stopped: true }, "Stopped.\n");
  return EXIT.ok;
}
