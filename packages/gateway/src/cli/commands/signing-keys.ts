import { openCore } from "../../gateway.js";
import { type CliIo, EXIT } from "../io.js";
import { configFrom } from "../options.js";
import { type CommandGroup, parseFor, subcommandOf } from "../spec.js";

export const SIGNING_KEYS: CommandGroup = {
  name: "signing-keys",
  summary: "The gateway's own JWT signing keys.",
  subcommands: {
    list: {
      name: "signing-keys list",
      summary: "The signing keys: kid, created, retired.",
      options: {},
    },
    rotate: {
      name: "signing-keys rotate",
      summary:
        "Creates a new signing key; the previous one keeps verifying until its tokens can no longer be refreshed.",
      options: {},
    },
  },
};

export async function signingKeysCommand(args: string[], io: CliIo): Promise<number> {
  const [spec, rest] = subcommandOf(SIGNING_KEYS, args);
  const sub = spec.name.slice("signing-keys ".length);
  const { values } = parseFor(spec, rest);
  const core = await openCore(configFrom(io, values.db), { create: false });
  try {
    if (sub === "rotate") {
      const kid = await core.signingKeys.rotate();
      io.stdout(
        values.json
          ? `${JSON.stringify({ kid })}\n`
          : `New signing key ${kid}. Running gateways pick it up within a minute.\n`,
      );
    }
    const keys = core.signingKeys.list().map((k) => ({
      kid: k.kid,
      created_at: new Date(k.createdAt).toISOString(),
      retired_at: k.retiredAt === null ? null : new Date(k.retiredAt).toISOString(),
    }));
    if (sub === "list") {
      io.stdout(
        values.json
          ? `${JSON.stringify(keys, null, 2)}\n`
          : keys
              .map(
                (k) =>
                  `${k.kid}  created ${k.created_at}  ${k.retired_at ? `retired ${k.retired_at}` : "signing"}\n`,
              )
              .join(""),
      );
    }
    return EXIT.ok;
  } finally {
    await core.store.close();
  }
}
