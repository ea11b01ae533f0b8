import { openCore } from "../../core.js";
import { type CliIo, EXIT, UsageError } from "../io.js";
import { configFrom, stringOption } from "../options.js";
import { type CommandGroup, helpOf, parseFor, subcommandOf } from "../spec.js";

export const ORDERS: CommandGroup = {
  name: "orders",
  summary: "Order numbering after a restore.",
  subcommands: {
    "number-floor": {
      name: "orders number-floor",
      summary:
        "After restoring an older backup: every partner's (or one partner's) next order number is above N, so numbers already handed out are not issued again. Use the highest number any partner may have seen (e.g. from the partners' side or your logs). Never lowers a count; safe while gateways run.",
      options: {
        at: {
          type: "string",
          value: "N",
          help: "the highest order number already issued",
          required: true,
        },
        partner: { type: "string", value: "CLIENT_ID", help: "only this partner" },
      },
    },
  },
};

export async function ordersCommand(args: string[], io: CliIo): Promise<number> {
  const [spec, rest] = subcommandOf(ORDERS, args);
  const { values } = parseFor(spec, rest);
  const at = stringOption(values, "at") ?? "";
  if (!/^\d{1,15}$/.test(at)) throw new UsageError("--at must be a whole number.", helpOf(spec));
  const floor = Number(at);
  const core = await openCore(configFrom(io, values.db), { create: false });
  try {
    const clientId = stringOption(values, "partner");
    let partnerId: string | undefined;
    if (clientId !== undefined) {
      const partner = await core.store.findPartnerByClientId(clientId);
      if (!partner) throw new UsageError(`No partner '${clientId}'.`);
      partnerId = partner.id;
    }
    const raised = await core.store.raiseOrderNumberFloor(floor, partnerId);
    io.stdout(
      values.json
        ? `${JSON.stringify({ floor, partners_raised: raised })}\n`
        : `Order numbers continue above ${floor}: ${raised} partner(s) raised, the others were past it already.\n`,
    );
    return EXIT.ok;
  } finally {
    await core.store.close();
  }
}
