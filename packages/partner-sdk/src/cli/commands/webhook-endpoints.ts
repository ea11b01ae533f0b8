import { createPartnerClient } from "../../client.js";
import type { WebhookAttempt, WebhookEndpoint } from "../../self-service-types.js";
import { type CliIo, EXIT, output, UsageError } from "../io.js";
import {
  CONNECTION_HELP,
  CONNECTION_OPTIONS,
  clientOptionsOf,
  parse,
  str,
  type Values,
} from "../options.js";

export const ENDPOINT_SUBCOMMANDS = [
  "create",
  "list",
  "get",
  "update",
  "delete",
  "rotate-secret",
  "deliveries",
  "resend",
  "test",
] as const;

const WEBHOOK_ENDPOINTS_HELP = `Usage: orderline-partner webhooks <subcommand> [options]   (your own endpoints)

  create --url URL --events T,T   register an endpoint (events: order.created, order.accepted,
                                  order.rejected, order.fulfilled, order.cancelled, or '*');
                                  prints its signing secret, shown only this once
  list                            your endpoints
  get ID                          one endpoint
  update ID [--url URL] [--events T,T] [--enable | --disable]
  delete ID                       remove it with its queued deliveries
  rotate-secret ID                a new secret (printed once); the old one signs too for 24 h
  deliveries ID [--limit N]       its delivery attempts, newest first (N 1–100, default 20)
  resend ID EVENT_ID              deliver an event (evt_…) to it again, now
  test ID                         fire a webhook.test event at it; prints the event id

${CONNECTION_HELP}`;

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  url: { type: "string" },
  events: { type: "string" },
  enable: { type: "boolean", default: false },
  disable: { type: "boolean", default: false },
  limit: { type: "string" },
} as const;

function summary(e: WebhookEndpoint): string {
  const state = e.enabled ? "enabled " : "disabled";
  const failing = e.failing_since ? `  failing since ${e.failing_since}` : "";
  const why = e.disabled_reason ? `  (${e.disabled_reason})` : "";
  return `${e.id}  ${state}  ${e.events.join(",")}  ${e.url}${failing}${why}\n`;
}

function attemptLine(a: WebhookAttempt): string {
  const answer = a.response_status === null ? "no answer" : `HTTP ${a.response_status}`;
  return `${a.attempted_at}  ${a.event_id}  ${a.event_type}  #${a.attempt}  ${a.status.padEnd(9)}  ${answer}  ${a.duration_ms} ms${a.error ? `  ${a.error}` : ""}\n`;
}

function eventsOf(values: Values): string[] | undefined {
  const text = str(values, "events");
  if (text === undefined) return undefined;
  const events = text
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
  if (events.length === 0) throw new UsageError("--events needs at least one event type, or '*'.");
  return events;
}

function idAt(positionals: string[], index: number, what: string, sub: string): string {
  const id = positionals[index];
  if (id === undefined)
    throw new UsageError(`webhooks ${sub} needs ${what}.\n\n${WEBHOOK_ENDPOINTS_HELP}`);
  return id;
}

function limitOf(values: Values): number | undefined {
  const text = str(values, "limit");
  if (text === undefined) return undefined;
  const limit = Number(text);
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= 100))
    throw new UsageError("--limit must be an integer from 1 to 100.");
  return limit;
}

function changeOf(values: Values): { url?: string; events?: string[]; enabled?: boolean } {
  if (values.enable && values.disable)
    throw new UsageError("Give --enable or --disable, not both.");
  const url = str(values, "url");
  const events = eventsOf(values);
  const change = {
    ...(url === undefined ? {} : { url }),
    ...(events === undefined ? {} : { events }),
    ...(values.enable ? { enabled: true } : values.disable ? { enabled: false } : {}),
  };
  if (Object.keys(change).length === 0)
    throw new UsageError("webhooks update needs --url, --events, --enable or --disable.");
  return change;
}

/** The partner's own endpoints: `orderline-partner webhooks create|list|…|test`. */
export async function webhookEndpointsCommand(
  sub: string,
  args: string[],
  io: CliIo,
): Promise<number> {
  const { values, positionals } = parse(args, OPTIONS, WEBHOOK_ENDPOINTS_HELP);
  if (values.help) {
    io.stdout(WEBHOOK_ENDPOINTS_HELP);
    return EXIT.ok;
  }
  const json = values.json === true;
  const id = (what = "an endpoint ID") => idAt(positionals, 0, what, sub);
  // Usage is checked before the client is made: a bad command line needs no credentials.
  const act = await planOf(sub, values, positionals, id);
  const endpoints = createPartnerClient(clientOptionsOf(io, values)).webhookEndpoints;
  const { value, text } = await act(endpoints);
  output(io, json, value, text);
  return EXIT.ok;
}

type Endpoints = ReturnType<typeof createPartnerClient>["webhookEndpoints"];
type Act = (endpoints: Endpoints) => Promise<{ value: unknown; text: string }>;

async function planOf(
  sub: string,
  values: Values,
  positionals: string[],
  id: () => string,
): Promise<Act> {
  switch (sub) {
    case "create": {
      const url = str(values, "url");
      const events = eventsOf(values);
      if (url === undefined || events === undefined)
        throw new UsageError(
          `webhooks create needs --url and --events.\n\n${WEBHOOK_ENDPOINTS_HELP}`,
        );
      return async (e) => {
        const created = await e.create({ url, events });
        const text = `Created ${summary(created)}Signing secret (shown only this once; keep it in your secret manager):\n  ${created.secret}\n`;
        return { value: { data: created }, text };
      };
    }
    case "list":
      return async (e) => {
        const list = await e.list();
        return { value: { data: list }, text: list.map(summary).join("") || "No endpoints.\n" };
      };
    case "get": {
      const endpoint = id();
      return async (e) => {
        const found = await e.get(endpoint);
        return { value: { data: found }, text: summary(found) };
      };
    }
    case "update": {
      const endpoint = id();
      const change = changeOf(values);
      return async (e) => {
        const updated = await e.update(endpoint, change);
        return { value: { data: updated }, text: `Updated ${summary(updated)}` };
      };
    }
    default:
      return actionPlanOf(sub, values, positionals, id);
  }
}

async function actionPlanOf(
  sub: string,
  values: Values,
  positionals: string[],
  id: () => string,
): Promise<Act> {
  const endpoint = id();
  switch (sub) {
    case "delete":
      return async (e) => {
        await e.delete(endpoint);
        return { value: { data: { id: endpoint, deleted: true } }, text: `Deleted ${endpoint}.\n` };
      };
    case "rotate-secret":
      return async (e) => {
        const rotated = await e.rotateSecret(endpoint);
        const until = rotated.previous_valid_until
          ? `The old secret also signs until ${rotated.previous_valid_until}.\n`
          : "The old secret no longer signs.\n";
        const text = `New signing secret for ${endpoint} (shown only this once):\n  ${rotated.secret}\n${until}`;
        return { value: { data: rotated }, text };
      };
    case "deliveries": {
      const limit = limitOf(values);
      return async (e) => {
        const attempts = await e.deliveries(endpoint, limit === undefined ? {} : { limit });
        const text = attempts.map(attemptLine).join("") || "No delivery attempts yet.\n";
        return { value: { data: attempts }, text };
      };
    }
    case "resend": {
      const eventId = idAt(positionals, 1, "an endpoint ID and an EVENT_ID (evt_…)", sub);
      return async (e) => {
        await e.resend(endpoint, eventId);
        const text = `Queued ${eventId} for ${endpoint}: it is delivered again now.\n`;
        return {
          value: { data: { endpoint_id: endpoint, event_id: eventId, queued: true } },
          text,
        };
      };
    }
    case "test":
      return async (e) => {
        const sent = await e.test(endpoint);
        const text = `Sent webhook.test ${sent.event_id} to ${endpoint}; see it with: orderline-partner webhooks deliveries ${endpoint}\n`;
        return { value: { data: sent }, text };
      };
    default:
      throw new UsageError(`Unknown subcommand '${sub}'.\n\n${WEBHOOK_ENDPOINTS_HELP}`);
  }
}
