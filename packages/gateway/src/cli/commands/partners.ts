import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { openCore } from "../../core.js";
import { PartnerAdminError, type PartnerSummary } from "../../domain/partners/admin.js";
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

const CLIENT_ID = "CLIENT_ID";

export const PARTNERS: CommandGroup = {
  name: "partners",
  summary: "Partners (the systems that send orders): credentials, RSA keys, tenant, status.",
  subcommands: {
    create: {
      name: "partners create",
      summary:
        "New partner; prints its client_id and client_secret ONCE (hand the secret over a secure channel).",
      options: {
        name: { type: "string", value: "NAME", help: "the partner's display name", required: true },
        "public-key": {
          type: "string",
          value: "FILE",
          help: "its RSA public key, X.509 PEM (BEGIN PUBLIC KEY), at least 2048 bits",
        },
        tenant: {
          type: "string",
          value: "ID",
          help: "the tenant its orders go to (whose users read them)",
        },
      },
    },
    "add-key": {
      name: "partners add-key",
      args: CLIENT_ID,
      summary: "Registers an RSA public key (X.509 PEM, >= 2048 bits; at most 2 active).",
      options: {
        "public-key": {
          type: "string",
          value: "FILE",
          help: "the public key file (BEGIN PUBLIC KEY)",
          required: true,
        },
      },
    },
    "revoke-key": {
      name: "partners revoke-key",
      args: `${CLIENT_ID} KEY_ID`,
      summary: "Stops accepting signatures made with that key.",
      options: {},
    },
    "rotate-secret": {
      name: "partners rotate-secret",
      args: CLIENT_ID,
      summary:
        "Issues a new client_secret; the old one and its tokens keep working for a grace period.",
      options: {
        grace: {
          type: "string",
          value: "DURATION",
          help: "how long the old secret and its tokens keep working: 90m, 12h, 7d … (default 24h, at most 30d)",
        },
        immediately: {
          type: "boolean",
          help: "the old secret and its tokens stop at once (a leaked secret)",
        },
      },
    },
    "set-tenant": {
      name: "partners set-tenant",
      args: CLIENT_ID,
      summary: "Sets the tenant whose users read the partner's orders (all of them).",
      options: {
        tenant: { type: "string", value: "ID|none", help: "a tenant id, or none", required: true },
      },
    },
    disable: {
      name: "partners disable",
      args: CLIENT_ID,
      summary: "Refuses the partner's logins and requests.",
      options: {},
    },
    enable: {
      name: "partners enable",
      args: CLIENT_ID,
      summary: "Allows the partner's logins and requests again.",
      options: {},
    },
    "require-signature-v2": {
      name: "partners require-signature-v2",
      args: CLIENT_ID,
      summary:
        "Refuses version 1 signatures (client_id|timestamp) from now on: every request must sign method, path and body (version 2).",
      options: {},
    },
    "allow-signature-v1": {
      name: "partners allow-signature-v1",
      args: CLIENT_ID,
      summary: "Accepts version 1 signatures again (undoes require-signature-v2).",
      options: {},
    },
    list: { name: "partners list", summary: "Partners, their status and keys.", options: {} },
  },
};

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
        `${p.client_id}  ${p.status.padEnd(8)}  ${p.name}  (secret v${p.secret_version}${p.previous_secret_valid_until ? `, previous secret until ${p.previous_secret_valid_until}` : ""}, signature v${p.signature_version}${p.signature_version === 1 ? " or v2" : " only"}, ${p.tenant_id ? `tenant ${p.tenant_id}` : "no tenant"}, created ${p.created_at})`,
        ...keys,
      ].join("\n");
    })
    .join("\n")
    .concat("\n");
}

export async function partnersCommand(args: string[], io: CliIo): Promise<number> {
  const [spec, rest] = subcommandOf(PARTNERS, args);
  const sub = spec.name.slice("partners ".length);
  const { values, positionals } = parseFor(spec, rest);
  const json = values.json === true;
  const core = await openCore(configFrom(io, values.db), { create: false });
  const subject = positionals[0];
  const audit = operatorAudit(core, spec.name, io, subject ? { client_id: subject } : {});
  const out = (value: unknown, text: string) => {
    audit.saw(value);
    io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : text);
  };
  try {
    const admin = core.partners;
    switch (sub) {
      case "create": {
        const name = stringOption(values, "name") as string;
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
        const clientId = requirePositional(spec, positionals, 0, "CLIENT_ID");
        const pem = readKey(io, stringOption(values, "public-key")) as string;
        const keyId = await admin.addKey(clientId, pem);
        out({ client_id: clientId, key_id: keyId }, `Added key ${keyId} to ${clientId}.\n`);
        return EXIT.ok;
      }
      case "revoke-key": {
        const clientId = requirePositional(spec, positionals, 0, "CLIENT_ID");
        const keyId = requirePositional(spec, positionals, 1, "KEY_ID");
        await admin.revokeKey(clientId, keyId);
        out(
          { client_id: clientId, key_id: keyId, revoked: true },
          `Revoked key ${keyId} of ${clientId}.\n`,
        );
        return EXIT.ok;
      }
      case "rotate-secret": {
        const clientId = requirePositional(spec, positionals, 0, "CLIENT_ID");
        const grace = stringOption(values, "grace");
        if (grace !== undefined && values.immediately === true)
          throw new UsageError("Give either --grace or --immediately, not both.", helpOf(spec));
        const graceMs = values.immediately === true ? 0 : graceOption(spec, grace);
        const { clientSecret, previousValidUntil } = await admin.rotateSecret(clientId, graceMs);
        const until =
          previousValidUntil === null ? null : new Date(previousValidUntil).toISOString();
        out(
          { client_id: clientId, client_secret: clientSecret, previous_secret_valid_until: until },
          `client_secret: ${clientSecret}\n${
            until === null
              ? "The old secret and every token issued with it no longer work."
              : `The old secret and the tokens issued with it keep working until ${until}; deploy the new secret before then.`
          }\n`,
        );
        return EXIT.ok;
      }
      case "set-tenant": {
        const clientId = requirePositional(spec, positionals, 0, "CLIENT_ID");
        const tenantId = stringOption(values, "tenant") as string;
        await admin.setTenant(clientId, tenantId === "none" ? null : tenantId);
        out(
          { client_id: clientId, tenant_id: tenantId === "none" ? null : tenantId },
          `Partner ${clientId} now belongs to ${tenantId === "none" ? "no tenant" : tenantId}.\n`,
        );
        return EXIT.ok;
      }
      case "disable":
      case "enable": {
        const clientId = requirePositional(spec, positionals, 0, "CLIENT_ID");
        const status = sub === "disable" ? "disabled" : "active";
        await admin.setStatus(clientId, status);
        out({ client_id: clientId, status }, `Partner ${clientId} is now ${status}.\n`);
        return EXIT.ok;
      }
      case "require-signature-v2":
      case "allow-signature-v1": {
        const clientId = requirePositional(spec, positionals, 0, "CLIENT_ID");
        const version = sub === "require-signature-v2" ? 2 : 1;
        await admin.setSignatureVersion(clientId, version);
        out(
          { client_id: clientId, signature_version: version },
          version === 2
            ? `Partner ${clientId} must now sign requests with signature version 2; version 1 is refused.\n`
            : `Partner ${clientId} may sign requests with signature version 1 or 2.\n`,
        );
        return EXIT.ok;
      }
      default: {
        const partners = await admin.list();
        out(partners, formatList(partners));
        return EXIT.ok;
      }
    }
  } finally {
    await audit.flush();
    await core.store.close();
  }
}
