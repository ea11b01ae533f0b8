import { openCore } from "../../core.js";
import type { AttemptView, EndpointView } from "../../domain/webhooks/endpoint-admin.js";
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from "../../domain/webhooks/event-types.js";
import { operatorAudit } from "../audit.js";
import { type CliIo, EXIT, UsageError } from "../io.js";
import { configFrom, stringOption } from "../options.js";
import {
  type CommandGroup,
  graceOption,
  helpOf,
  parseFor,
  requirePositional,
  subcommandOf,
} from "../spec.js";

const ENDPOINT = "CLIENT_ID ENDPOINT_ID";

export const WEBHOOKS: CommandGroup = {
  name: "webhooks",
  summary:
    "A partner's webhook endpoints: signed order events POSTed to its URLs; attempts, resends.",
  subcommands: {
    add: {
      name: "webhooks add",
      args: "CLIENT_ID",
      summary: "New endpoint; prints its signing secret (whsec_…) ONCE.",
      options: {
        url: {
          type: "string",
          value: "URL",
          help: "where events are POSTed (https; private addresses only if GATEWAY_WEBHOOK_ALLOW_PRIVATE allows)",
          required: true,
        },
        events: {
          type: "string",
          value: "LIST",
          help: `comma-separated event types (${WEBHOOK_EVENT_TYPES.join(", ")}), or * for all (default)`,
        },
      },
    },
    list: {
      name: "webhooks list",
      args: "CLIENT_ID",
      summary:
        "The partner's endpoints: events, enabled or why disabled, last success, failing since.",
      options: {},
    },
    remove: {
      name: "webhooks remove",
      args: ENDPOINT,
      summary: "Deletes the endpoint with its queued deliveries and attempts.",
      options: {},
    },
    disable: {
      name: "webhooks disable",
      args: ENDPOINT,
      summary: "Stops deliveries to the endpoint (they stay queued until it is enabled).",
      options: {},
    },
    enable: {
      name: "webhooks enable",
      args: ENDPOINT,
      summary: "Resumes deliveries to the endpoint and clears its failure streak.",
      options: {},
    },
    "rotate-secret": {
      name: "webhooks rotate-secret",
      args: ENDPOINT,
      summary:
        "Issues a new signing secret; deliveries carry a signature with the old one too for a grace period.",
      options: {
        grace: {
          type: "string",
          value: "DURATION",
          help: "how long the old secret keeps signing beside the new one: 30m, 12h, 7d … (default GATEWAY_WEBHOOK_SECRET_GRACE_SECONDS, 24h)",
        },
        immediately: { type: "boolean", help: "sign with the new secret only, from now on" },
      },
    },
    deliveries: {
      name: "webhooks deliveries",
      args: ENDPOINT,
      summary:
        "The endpoint's delivery attempts, newest first: status, HTTP status, duration, error.",
      options: {
        limit: { type: "string", value: "N", help: "how many (1–100, default 20)" },
      },
    },
    resend: {
      name: "webhooks resend",
      args: `${ENDPOINT} EVENT_ID`,
      summary: "Delivers the event (evt_…) to the endpoint again, now, with a fresh retry window.",
      options: {},
    },
  },
};

function formatEndpoints(clientId: string, endpoints: EndpointView[]): string {
  if (endpoints.length === 0)
    return `No webhook endpoints for ${clientId}. Add one with: orderline-gateway webhooks add ${clientId} --url URL\n`;
  return endpoints
    .map((e) =>
      [
        `${e.id}  ${e.enabled ? "enabled " : "DISABLED"}  ${e.url}`,
        `    events: ${e.events.join(", ")}`,
        ...(e.disabled_reason ? [`    ${e.disabled_reason}`] : []),
        `    last success: ${e.last_success_at ?? "never"}${e.failing_since ? `; failing since ${e.failing_since}` : ""}`,
      ].join("\n"),
    )
    .join("\n")
    .concat("\n");
}

function formatAttempts(attempts: AttemptView[]): string {
  if (attempts.length === 0) return "No delivery attempts yet.\n";
  return attempts
    .map(
      (a) =>
        `${a.attempted_at}  ${a.status.padEnd(9)}  ${String(a.response_status ?? "---")}  ${String(a.duration_ms).padStart(6)} ms  ${a.event_type.padEnd(15)}  ${a.event_id}  #${a.attempt}${a.error ? `  ${a.error}` : ""}`,
    )
    .join("\n")
    .concat("\n");
}

export async function webhooksCommand(args: string[], io: CliIo): Promise<number> {
  const [spec, rest] = subcommandOf(WEBHOOKS, args);
  const sub = spec.name.slice("webhooks ".length);
  const { values, positionals } = parseFor(spec, rest);
  const json = values.json === true;
  const clientId = requirePositional(spec, positionals, 0, "CLIENT_ID");
  const scope = { clientId };
  const endpointId = () => requirePositional(spec, positionals, 1, "ENDPOINT_ID");
  const core = await openCore(configFrom(io, values.db), { create: false });
  const audit = operatorAudit(core, spec.name, io, { client_id: clientId });
  const out = (value: unknown, text: string) => {
    audit.saw(value);
    io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : text);
  };
  try {
    const webhooks = core.webhooks;
    switch (sub) {
      case "add": {
        const events = (stringOption(values, "events") ?? ALL_EVENTS)
          .split(",")
          .map((e) => e.trim())
          .filter(Boolean);
        const created = await webhooks.create(scope, {
          url: stringOption(values, "url") as string,
          events,
        });
        out(
          created,
          [
            `endpoint_id: ${created.id}`,
            `secret:      ${created.secret}`,
            `events:      ${created.events.join(", ")}`,
            "The secret is shown only now; the receiver checks Orderline-Signature with it.",
            "",
          ].join("\n"),
        );
        return EXIT.ok;
      }
      case "list": {
        const endpoints = await webhooks.list(scope);
        out(endpoints, formatEndpoints(clientId, endpoints));
        return EXIT.ok;
      }
      case "remove": {
        const id = endpointId();
        await webhooks.remove(scope, id);
        out({ endpoint_id: id, removed: true }, `Removed webhook endpoint ${id}.\n`);
        return EXIT.ok;
      }
      case "disable":
      case "enable": {
        const id = endpointId();
        const updated = await webhooks.update(
          scope,
          id,
          { enabled: sub === "enable" },
          "the operator (admin CLI)",
        );
        out(
          updated,
          `Webhook endpoint ${id} is now ${sub === "enable" ? "enabled" : "disabled"}.\n`,
        );
        return EXIT.ok;
      }
      case "rotate-secret": {
        const id = endpointId();
        const grace = stringOption(values, "grace");
        if (grace !== undefined && values.immediately === true)
          throw new UsageError("Give either --grace or --immediately, not both.", helpOf(spec));
        const graceMs = values.immediately === true ? 0 : graceOption(spec, grace);
        const rotated = await webhooks.rotateSecret(
          scope,
          id,
          graceMs === undefined ? undefined : Math.floor(graceMs / 1000),
        );
        out(
          { endpoint_id: id, ...rotated },
          `secret: ${rotated.secret}\n${
            rotated.previous_valid_until === null
              ? "Deliveries are signed with the new secret only."
              : `Deliveries carry a signature with the old secret too until ${rotated.previous_valid_until}; deploy the new one before then.`
          }\n`,
        );
        return EXIT.ok;
      }
      case "deliveries": {
        const raw = stringOption(values, "limit");
        const limit = raw === undefined ? 20 : Number(raw);
        if (!Number.isInteger(limit) || limit < 1 || limit > 100)
          throw new UsageError(
            `--limit takes a whole number from 1 to 100, got '${raw}'.`,
            helpOf(spec),
          );
        const attempts = await webhooks.deliveries(scope, endpointId(), limit);
        out(attempts, formatAttempts(attempts));
        return EXIT.ok;
      }
      case "resend": {
        const id = endpointId();
        const eventId = requirePositional(spec, positionals, 2, "EVENT_ID");
        await webhooks.resend(scope, id, eventId);
        out(
          { endpoint_id: id, event_id: eventId, queued: true },
          `Queued ${eventId} for ${id}; a running gateway delivers it within its poll interval.\n`,
        );
        return EXIT.ok;
      }
      default:
        throw new UsageError(`Unknown subcommand '${sub}'.`);
    }
  } finally {
    await audit.flush();
    await core.store.close();
  }
}
