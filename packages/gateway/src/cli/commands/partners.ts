import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { PartnerAdminError, type PartnerSummary } from "../../auth/partners.js";
import { PublicKeyError } from "../../auth/public-key.js";
import { openCore } from "../../gateway.js";
import { type CliIo, EXIT, UsageError } from "../io.js";
import { configFrom, parse, stringOption } from "../options.js";

export const PARTNERS_HELP = `Usage: orderline-gateway partners <subcommand> [options]   (store: --db FILE|URL or DATABASE_URL)

  create --name NAME [--public-key FILE] [--tenant ID] [--json]
                                                    new partner; prints client_id and client_secret ONCE;
                                                    --tenant: its orders go to that tenant, whose users read them
  add-key CLIENT_ID --public-key FILE [--json]      register an RSA public key (X.509 PEM, >= 2048 bits; max 2 active)
  revoke-key CLIENT_ID KEY_ID                       stop accepting signatures made with that key
  rotate-secret CLIENT_ID [--json]                  issue a new client_secret; tokens from the old one stop working
  set-tenant CLIENT_ID --tenant ID|none             the tenant whose users read the partner's orders (all of them)
  disable CLIENT_ID | enable CLIENT_ID              refuse / allow the partner's logins and requests
  list [--json]                                     partners, their status and keys
`;

function readKey(io: CliIo, file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    return readFileSync(resolve(io.cwd, file), "utf8");
  } catch (error) {
    throw new PartnerAdminError(
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

function formatList(partners: PartnerSummary[]): string {
  if (partners.length === 0)
    return "No partners yet. Create one with: orderline-gateway partners create --name NAME\n";
  return partners
    .map((p) => {
      const keys = p.keys.map(
        (k) =>
          `    ${k.key_id}  ${k.bits} bits  ${k.revoked_at === null ? "active" : `revoked ${k.revoked_at}`}`,
      );
      return [
        `${p.client_id}  ${p.status.padEnd(8)}  ${p.name}  (secret v${p.secret_version}, ${p.tenant_id ? `tenant ${p.tenant_id}` : "no tenant"}, created ${p.created_at})`,
        ...keys,
      ].join("\n");
    })
    .join("\n")
    .concat("\n");
}

function requirePositional(positionals: string[], index: number, what: string): string {
  const value = positionals[index];
  if (value === undefined) throw new UsageError(`Missing ${what}.\n\n${PARTNERS_HELP}`);
  return value;
}

export async function partnersCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parse(rest, {
    name: { type: "string" },
    "public-key": { type: "string" },
    tenant: { type: "string" },
    json: { type: "boolean", default: false },
  });
  if (
    sub === undefined ||
    ![
      "create",
      "add-key",
      "revoke-key",
      "rotate-secret",
      "set-tenant",
      "disable",
      "enable",
      "list",
    ].includes(sub)
  ) {
    throw new UsageError(
      `${sub === undefined ? "Missing subcommand" : `Unknown subcommand '${sub}'`}.\n\n${PARTNERS_HELP}`,
    );
  }
  const json = values.json === true;
  const out = (value: unknown, text: string) =>
    io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : text);
  const core = await openCore(configFrom(io, values.db));
  try {
    const admin = core.partners;
    switch (sub) {
      case "create": {
        const name = stringOption(values, "name");
        if (name === undefined)
          throw new UsageError(`partners create needs --name.\n\n${PARTNERS_HELP}`);
        const tenantId = stringOption(values, "tenant");
        const created = await admin.create(
          name,
          readKey(io, stringOption(values, "public-key")),
          tenantId === undefined ? {} : { tenantId },
        );
        out(
          {
            client_id: created.clientId,
            client_secret: created.clientSecret,
            key_id: created.keyId ?? null,
          },
          [
            `client_id:     ${created.clientId}`,
            `client_secret: ${created.clientSecret}`,
            created.keyId
              ? `key_id:        ${created.keyId}`
              : "no public key yet: add one with partners add-key",
            "The secret is shown only now; hand it to the partner over a secure channel.",
            "",
          ].join("\n"),
        );
        return EXIT.ok;
      }
      case "add-key": {
        const clientId = requirePositional(positionals, 0, "CLIENT_ID");
        const pem = readKey(io, stringOption(values, "public-key"));
        if (pem === undefined)
          throw new UsageError(`partners add-key needs --public-key FILE.\n\n${PARTNERS_HELP}`);
        const keyId = await admin.addKey(clientId, pem);
        out({ client_id: clientId, key_id: keyId }, `Added key ${keyId} to ${clientId}.\n`);
        return EXIT.ok;
      }
      case "revoke-key": {
        const clientId = requirePositional(positionals, 0, "CLIENT_ID");
        const keyId = requirePositional(positionals, 1, "KEY_ID");
        await admin.revokeKey(clientId, keyId);
        out(
          { client_id: clientId, key_id: keyId, revoked: true },
          `Revoked key ${keyId} of ${clientId}.\n`,
        );
        return EXIT.ok;
      }
      case "rotate-secret": {
        const clientId = requirePositional(positionals, 0, "CLIENT_ID");
        const secret = await admin.rotateSecret(clientId);
        out(
          { client_id: clientId, client_secret: secret },
          `client_secret: ${secret}\nThe old secret and every token issued with it no longer work.\n`,
        );
        return EXIT.ok;
      }
      case "set-tenant": {
        const clientId = requirePositional(positionals, 0, "CLIENT_ID");
        const tenantId = stringOption(values, "tenant");
        if (tenantId === undefined)
          throw new UsageError(
            `partners set-tenant needs --tenant ID (or none).\n\n${PARTNERS_HELP}`,
          );
        await admin.setTenant(clientId, tenantId === "none" ? null : tenantId);
        out(
          { client_id: clientId, tenant_id: tenantId === "none" ? null : tenantId },
          `Partner ${clientId} now belongs to ${tenantId === "none" ? "no tenant" : tenantId}.\n`,
        );
        return EXIT.ok;
      }
      case "disable":
      case "enable": {
        const clientId = requirePositional(positionals, 0, "CLIENT_ID");
        const status = sub === "disable" ? "disabled" : "active";
        await admin.setStatus(clientId, status);
        out({ client_id: clientId, status }, `Partner ${clientId} is now ${status}.\n`);
        return EXIT.ok;
      }
      default: {
        const partners = await admin.list();
        out(partners, formatList(partners));
        return EXIT.ok;
      }
    }
  } catch (error) {
    if (error instanceof PartnerAdminError || error instanceof PublicKeyError) {
      io.stderr(`orderline-gateway: ${error.message}\n`);
      return EXIT.failure;
    }
    throw error;
  } finally {
    await core.store.close();
  }
}
