import { createHash, generateKeyPairSync } from "node:crypto";
import { chmodSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type CliIo, EXIT, output, UsageError } from "../io.js";
import { parse, str } from "../options.js";

const KEYGEN_HELP = `Usage: orderline-partner keygen [--out FILE] [--force] [--json]

Generates an RSA-2048 key pair. Writes the private key (PKCS#8 PEM) to FILE with mode 0600
(default ./orderline-private.pem; an existing file is kept unless --force) and prints the public
key (X.509 PEM) to send to the integration team for registration, with its SHA-256 fingerprint.
`;

export function keygenCommand(args: string[], io: CliIo): number {
  const { values } = parse(
    args,
    {
      out: { type: "string" },
      force: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    KEYGEN_HELP,
  );
  if (values.help) {
    io.stdout(KEYGEN_HELP);
    return EXIT.ok;
  }
  const file = resolve(io.cwd, str(values, "out") ?? "orderline-private.pem");
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  try {
    // The mode applies on creation; chmod covers a file replaced with --force.
    writeFileSync(file, privatePem, { mode: 0o600, flag: values.force ? "w" : "wx" });
    chmodSync(file, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === "EEXIST"
        ? `${file} exists; keep it, choose another --out, or replace it with --force.`
        : `Cannot write ${file}: ${code ?? (error as Error).message}`,
    );
  }
  const publicPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const fingerprint = createHash("sha256")
    .update(publicKey.export({ type: "spki", format: "der" }))
    .digest("hex");
  output(
    io,
    values.json === true,
    { private_key_file: file, public_key_pem: publicPem, fingerprint, bits: 2048 },
    `${publicPem}\nPrivate key written to ${file} (mode 0600); keep it secret.\nSend the PUBLIC KEY block above to the integration team; fingerprint (SHA-256): ${fingerprint}\n`,
  );
  return EXIT.ok;
}
