import { openCore } from "../../gateway.js";
import { type CliIo, EXIT, UsageError } from "../io.js";
import { configFrom, parse } from "../options.js";

export const SIGNING_KEYS_HELP = `Usage: orderline-gateway signing-keys <list|rotate> [--db FILE|URL] [--json]

  list     the gateway's JWT signing keys (kid, created, retired)
  rotate   create a new signing key; the previous one keeps verifying until its tokens can no longer be refreshed
`;

export async function signingKeysCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const { values } = parse(rest, { json: { type: "boolean", default: false } });
  if (sub !== "list" && sub !== "rotate") throw new UsageError(SIGNING_KEYS_HELP);
  const core = await openCore(configFrom(io, values.db));
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
