import { openCore } from "../../core.js";
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
        "Creates a new signing key: published in the JWKS at once, signing once every cached JWKS has expired (GATEWAY_JWKS_MAX_AGE_SECONDS plus the instances' reload interval). The previous key signs until then and keeps verifying until its tokens can no longer be refreshed.",
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
      const { kid, signsFrom } = await core.signingKeys.rotate();
      const at = new Date(signsFrom).toISOString();
      const inSeconds = Math.ceil((signsFrom - core.now()) / 1000);
      io.stdout(
        values.json
          ? `${JSON.stringify({ kid, signs_from: at })}\n`
          : `New signing key ${kid}: published in /.well-known/jwks.json now, signs from ${at} (in ${inSeconds} s, when no cached JWKS can lack it any more).\n`,
      );
    }
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    const keys = core.signingKeys.list().map((k) => ({
      kid: k.kid,
      created_at: iso(k.createdAt),
      signs_from: iso(k.signsFrom),
      retired_at: iso(k.retiredAt),
    }));
    if (sub === "list") {
      io.stdout(
        values.json
          ? `${JSON.stringify(keys, null, 2)}\n`
          : keys
              .map(
                (k) =>
                  `${k.kid}  created ${k.created_at}  signs from ${k.signs_from}  ${k.retired_at ? `retired ${k.retired_at}` : "current"}\n`,
              )
              .join(""),
      );
    }
    return EXIT.ok;
  } finally {
    await core.store.close();
  }
}
