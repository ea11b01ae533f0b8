import { bodyDigest, signatureHeaders } from "../../signing.js";
import { type CliIo, EXIT, output, UsageError } from "../io.js";
import {
  CONNECTION_HELP,
  CONNECTION_OPTIONS,
  parse,
  readLocalFile,
  signatureVersionOf,
  signerOf,
  str,
} from "../options.js";

const SIGN_HELP = `Usage: orderline-partner sign [--timestamp T] [--signature-version 1|2] [--method M --path P [--body-file F]] [--json]

Prints the string-to-sign, the headers and the signature the SDK would send, so a hand-written
client can be compared byte for byte. Needs the client id and the private key, not the secret.
  --timestamp T        the X-TIMESTAMP to sign (default: now, Unix seconds)
  --method M           version 2: the HTTP method (default GET)
  --path P             version 2: the path with query, exactly as sent (default /api/v1/sales-orders)
  --body-file F        version 2: the exact body bytes (default: no body)

${CONNECTION_HELP}`;

export function signCommand(args: string[], io: CliIo): number {
  const { values } = parse(
    args,
    {
      ...CONNECTION_OPTIONS,
      timestamp: { type: "string" },
      method: { type: "string" },
      path: { type: "string" },
      "body-file": { type: "string" },
    },
    SIGN_HELP,
  );
  if (values.help) {
    io.stdout(SIGN_HELP);
    return EXIT.ok;
  }
  const { clientId, privateKey } = signerOf(io, values);
  const version = signatureVersionOf(io, values) ?? 2;
  const timestamp = str(values, "timestamp") ?? String(Math.floor(Date.now() / 1000));
  if (!/^\S+$/.test(timestamp)) throw new UsageError("--timestamp must not contain spaces.");
  const bodyFile = str(values, "body-file");
  const body = bodyFile === undefined ? "" : readLocalFile(io, bodyFile, "body file");
  const method = (str(values, "method") ?? "GET").toUpperCase();
  const target = str(values, "path") ?? "/api/v1/sales-orders";
  const { headers, stringToSign } = signatureHeaders(privateKey, version, {
    clientId,
    timestamp,
    method,
    target,
    body,
  });
  output(
    io,
    values.json === true,
    {
      signature_version: version,
      string_to_sign: stringToSign,
      ...(version === 2 ? { body_sha256: bodyDigest(body) } : {}),
      headers,
    },
    [
      `signature version: ${version}`,
      `string to sign (JSON-escaped, no trailing newline): ${JSON.stringify(stringToSign)}`,
      ...(version === 2 ? [`body SHA-256 (hex): ${bodyDigest(body)}`] : []),
      ...Object.entries(headers).map(([name, value]) => `${name.toUpperCase()}: ${value}`),
      "",
    ].join("\n"),
  );
  return EXIT.ok;
}
