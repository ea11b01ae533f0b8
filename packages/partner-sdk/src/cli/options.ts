import { createPrivateKey, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { PartnerClientOptions } from "../client.js";
import type { SignatureVersion } from "../signing.js";
import { type CliIo, UsageError } from "./io.js";

type Options = NonNullable<ParseArgsConfig["options"]>;
export type Values = Record<string, string | boolean | undefined>;

/** The gateway and the partner's identity: every flag has an environment variable. */
export const CONNECTION_OPTIONS = {
  "base-url": { type: "string" },
  "client-id": { type: "string" },
  "client-secret-file": { type: "string" },
  "private-key": { type: "string" },
  "signature-version": { type: "string" },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const satisfies Options;

export const CONNECTION_HELP = `Connection (a flag wins over its environment variable):
  --base-url URL              ORDERLINE_BASE_URL        the gateway, e.g. https://gateway.example.com
  --client-id ID              ORDERLINE_CLIENT_ID
  --client-secret-file FILE   ORDERLINE_CLIENT_SECRET   (the secret itself; never a flag, never printed)
                              ORDERLINE_CLIENT_SECRET_FILE
  --private-key FILE          ORDERLINE_PRIVATE_KEY_FILE  PEM private key whose public key is registered
  --signature-version 1|2     ORDERLINE_SIGNATURE_VERSION  default: 2 (body covered); 1 for old gateways
  --json                      machine-readable output (errors too, on stdout)
`;

export function parse(
  args: string[],
  options: Options,
  help: string,
): {
  values: Values;
  positionals: string[];
} {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true }) as {
      values: Values;
      positionals: string[];
    };
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${help}`);
  }
}

export function str(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

export function readLocalFile(io: CliIo, file: string, what: string): string {
  return readLocalBytes(io, file, what).toString("utf8");
}

/** The file's exact bytes (a body whose signature covers them). */
export function readLocalBytes(io: CliIo, file: string, what: string): Buffer {
  try {
    return readFileSync(resolve(io.cwd, file));
  } catch (error) {
    throw new UsageError(
      `Cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

function required(value: string | undefined, flag: string, env: string): string {
  if (value === undefined || value === "")
    throw new UsageError(`Missing ${flag} (or ${env} in the environment).`);
  return value;
}

export function signatureVersionOf(io: CliIo, values: Values): SignatureVersion | undefined {
  const raw = str(values, "signature-version") ?? io.env.ORDERLINE_SIGNATURE_VERSION;
  if (raw === undefined || raw === "") return undefined;
  if (raw !== "1" && raw !== "2") throw new UsageError("--signature-version must be 1 or 2.");
  return Number(raw) as SignatureVersion;
}

/** Client id and private key: what signing needs. */
export function signerOf(io: CliIo, values: Values): { clientId: string; privateKey: KeyObject } {
  const clientId = required(
    str(values, "client-id") ?? io.env.ORDERLINE_CLIENT_ID,
    "--client-id",
    "ORDERLINE_CLIENT_ID",
  );
  const keyFile = required(
    str(values, "private-key") ?? io.env.ORDERLINE_PRIVATE_KEY_FILE,
    "--private-key FILE",
    "ORDERLINE_PRIVATE_KEY_FILE",
  );
  const pem = readLocalFile(io, keyFile, "private key");
  if (/-----BEGIN (PUBLIC KEY|CERTIFICATE)-----/.test(pem) && !pem.includes("PRIVATE KEY")) {
    throw new UsageError(
      `${keyFile} holds a public key or certificate; signing needs the private key.`,
    );
  }
  try {
    return { clientId, privateKey: createPrivateKey(pem) };
  } catch {
    throw new UsageError(`${keyFile} is not a PEM private key (PKCS#8 or PKCS#1, unencrypted).`);
  }
}

/** Everything createPartnerClient needs, from flags and environment. */
export function clientOptionsOf(io: CliIo, values: Values): PartnerClientOptions {
  const baseUrl = required(
    str(values, "base-url") ?? io.env.ORDERLINE_BASE_URL,
    "--base-url",
    "ORDERLINE_BASE_URL",
  );
  const secretFile = str(values, "client-secret-file") ?? io.env.ORDERLINE_CLIENT_SECRET_FILE;
  const clientSecret =
    secretFile !== undefined
      ? readLocalFile(io, secretFile, "client secret file").trim()
      : required(io.env.ORDERLINE_CLIENT_SECRET, "--client-secret-file", "ORDERLINE_CLIENT_SECRET");
  const { clientId, privateKey } = signerOf(io, values);
  const version = signatureVersionOf(io, values);
  return {
    baseUrl,
    clientId,
    clientSecret,
    privateKey,
    ...(version === undefined ? {} : { signatureVersion: version }),
  };
}
