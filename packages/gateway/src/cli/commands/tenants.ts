import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Core, openCore } from "../../core.js";
import { AdminError } from "../../domain/tenants/admin.js";
import { NAMESPACE_PATTERN } from "../../domain/vocabulary/service.js";
import { ApiError } from "../../problems/api-error.js";
import { assertStoreFileExists } from "../../store/open.js";
import type { UserRole } from "../../store/tenant-store.js";
import { operatorAudit } from "../audit.js";
import { type CliIo, EXIT, UsageError } from "../io.js";
import { configFrom, stringOption } from "../options.js";
import {
  type CommandGroup,
  type CommandSpec,
  helpOf,
  parseFor,
  subcommandOf,
  type Values,
} from "../spec.js";

export const TENANTS: CommandGroup = {
  name: "tenants",
  summary: "Tenants: the companies whose users sign in to the tenant API (/v1).",
  subcommands: {
    create: {
      name: "tenants create",
      summary: "New tenant; prints its id (for users create and partners create --tenant).",
      options: {
        name: { type: "string", value: "NAME", help: "the tenant's display name", required: true },
      },
    },
    list: { name: "tenants list", summary: "The tenants.", options: {} },
  },
};

const PASSWORD_NOTE = `The password is read from stdin when piped, else prompted without echo (never a flag),
at least 12 characters:  printf '%s\\n' "$PASSWORD" | orderline-gateway users create …`;

/** A user named as the tenant API's admins would: within one tenant. */
const USER_OPTIONS: CommandSpec["options"] = {
  tenant: { type: "string", value: "ID", help: "the user's tenant", required: true },
  email: { type: "string", value: "EMAIL", help: "the user's sign-in name", required: true },
};

export const USERS: CommandGroup = {
  name: "users",
  summary: "A tenant's users.",
  subcommands: {
    create: {
      name: "users create",
      summary: "New tenant user.",
      notes: PASSWORD_NOTE,
      options: {
        tenant: { type: "string", value: "ID", help: "the user's tenant", required: true },
        email: { type: "string", value: "EMAIL", help: "the sign-in name", required: true },
        role: {
          type: "string",
          value: "admin|member",
          help: "what the user may do",
          required: true,
        },
        language: {
          type: "string",
          value: "TAG",
          help: "BCP 47 tag of the user's language (default: the first of GATEWAY_LANGUAGES)",
        },
      },
    },
    "set-password": {
      name: "users set-password",
      summary: "A new password for a user; the user's tokens stop working.",
      notes: PASSWORD_NOTE,
      options: {
        email: { type: "string", value: "EMAIL", help: "the user's sign-in name", required: true },
      },
    },
    "set-role": {
      name: "users set-role",
      summary:
        "A user's role (e.g. an admin again when no admin is left); demoting the tenant's last enabled admin is refused.",
      options: {
        ...USER_OPTIONS,
        role: { type: "string", value: "admin|member", help: "the new role", required: true },
      },
    },
    enable: {
      name: "users enable",
      summary: "Lets a disabled user sign in again (their old tokens and links stay dead).",
      options: USER_OPTIONS,
    },
    disable: {
      name: "users disable",
      summary:
        "Ends every token and unused set-password link of the user at once; the tenant's last enabled admin is refused.",
      options: USER_OPTIONS,
    },
    list: {
      name: "users list",
      summary: "The tenant's users.",
      options: {
        tenant: { type: "string", value: "ID", help: "the tenant", required: true },
      },
    },
  },
};

const OVERRIDE_OPTIONS: CommandSpec["options"] = {
  tenant: { type: "string", value: "ID", help: "the tenant", required: true },
  dir: {
    type: "string",
    value: "DIR",
    help: "the directory of <language>/<namespace>.json files",
    required: true,
  },
};

export const OVERRIDES: CommandGroup = {
  name: "overrides",
  summary: "A tenant's vocabulary overrides, as <language>/<namespace>.json files.",
  subcommands: {
    export: {
      name: "overrides export",
      summary: "Writes DIR/<language>/<namespace>.json for each stored override set.",
      options: OVERRIDE_OPTIONS,
    },
    import: {
      name: "overrides import",
      summary:
        "Reads DIR/<language>/<namespace>.json: each file replaces that language's overrides of the namespace. Every file is checked first, so one bad file imports nothing.",
      options: OVERRIDE_OPTIONS,
    },
  },
};

const NAMESPACE = new RegExp(NAMESPACE_PATTERN);

/**
 * Opens the admin services on an existing store, runs `work`, closes the store. What `work`
 * passes to `audited` is the operator's change, audited as `command` (cli/audit.ts).
 */
async function withCore(
  io: CliIo,
  db: string | boolean | undefined,
  work: (core: Core, audited: (value: unknown) => void) => Promise<number>,
  command = "",
  context: Record<string, unknown> = {},
): Promise<number> {
  const core = await openCore(configFrom(io, db), { create: false });
  const audit = operatorAudit(core, command, io, context);
  try {
    return await work(core, (value) => audit.saw(value));
  } finally {
    await audit.flush();
    await core.store.close();
  }
}

/** A required option's value (the parser has checked it is there). */
const required = (values: Values, name: string): string => stringOption(values, name) as string;

const output = (io: CliIo, json: boolean) => (value: unknown, text: string) =>
  io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : text);

export async function tenantsCommand(args: string[], io: CliIo): Promise<number> {
  const [spec, rest] = subcommandOf(TENANTS, args);
  const { values } = parseFor(spec, rest);
  const out = output(io, values.json === true);
  const name = spec === TENANTS.subcommands.create ? required(values, "name") : undefined;
  return withCore(io, values.db, async ({ tenants }) => {
    if (name !== undefined) {
      const tenant = await tenants.create(name);
      out(tenant, `tenant_id: ${tenant.tenant_id}\nname:      ${tenant.name}\n`);
      return EXIT.ok;
    }
    const list = await tenants.list();
    out(
      list,
      list.length === 0
        ? "No tenants yet. Create one with: orderline-gateway tenants create --name NAME\n"
        : list.map((t) => `${t.tenant_id}  ${t.name}  (created ${t.created_at})\n`).join(""),
    );
    return EXIT.ok;
  });
}

export async function usersCommand(args: string[], io: CliIo): Promise<number> {
  const [spec, rest] = subcommandOf(USERS, args);
  const sub = spec.name.slice("users ".length);
  const { values } = parseFor(spec, rest);
  const out = output(io, values.json === true);
  // A password typed for a store that is not there would be thrown away: check first.
  if (sub !== "list") assertStoreFileExists(configFrom(io, values.db).databaseUrl);
  if (sub === "set-password") {
    const email = required(values, "email");
    if (!io.readSecret) throw new UsageError("No way to read a password here.");
    const password = await io.readSecret(`New password for ${email}: `);
    return withCore(
      io,
      values.db,
      async ({ users }, audited) => {
        await users.setPassword(email, password);
        audited({ email, password_changed: true });
        out(
          { email, password_changed: true },
          `Password of ${email} changed; its tokens no longer work.\n`,
        );
        return EXIT.ok;
      },
      spec.name,
    );
  }
  const tenantId = required(values, "tenant");
  if (sub === "set-role" || sub === "enable" || sub === "disable")
    return changeUser(io, spec, values, sub, tenantId);
  if (sub === "list") {
    return withCore(io, values.db, async ({ tenants, users }) => {
      await tenants.get(tenantId);
      const list = await users.list(tenantId);
      out(
        list,
        list
          .map((u) => `${u.user_id}  ${u.role.padEnd(6)}  ${u.language.padEnd(5)}  ${u.email}\n`)
          .join("") || "No users in this tenant yet.\n",
      );
      return EXIT.ok;
    });
  }
  const email = required(values, "email");
  const role = required(values, "role");
  if (role !== "admin" && role !== "member")
    throw new UsageError("--role must be admin or member.", helpOf(spec));
  if (!io.readSecret) throw new UsageError("No way to read a password here.");
  const password = await io.readSecret(`Password for ${email}: `);
  const language = stringOption(values, "language");
  return withCore(
    io,
    values.db,
    async ({ users }, audited) => {
      const user = await users.create({
        tenantId,
        email,
        role,
        password,
        ...(language === undefined ? {} : { language }),
      });
      audited({ ...user, subject_user_id: user.user_id });
      out(
        user,
        `user_id:  ${user.user_id}\nemail:    ${user.email}\nrole:     ${user.role}\nlanguage: ${user.language}\n`,
      );
      return EXIT.ok;
    },
    spec.name,
  );
}

/**
 * The operators' way back when a tenant's admins locked themselves out (or a user must be
 * stopped): the same guarded changes as the Team page, audited as the operator's.
 */
async function changeUser(
  io: CliIo,
  spec: CommandSpec,
  values: Values,
  sub: "set-role" | "enable" | "disable",
  tenantId: string,
): Promise<number> {
  const email = required(values, "email");
  const role = sub === "set-role" ? required(values, "role") : undefined;
  if (role !== undefined && role !== "admin" && role !== "member")
    throw new UsageError("--role must be admin or member.", helpOf(spec));
  const out = output(io, values.json === true);
  return withCore(
    io,
    values.db,
    async ({ tenants, team }, audited) => {
      await tenants.get(tenantId);
      const member = await refusedAsAdminError(async () => {
        const user = await team.memberByEmail(tenantId, email);
        return role !== undefined
          ? team.changeRole(tenantId, user.id, role as UserRole)
          : team.setDisabled(tenantId, user.id, sub === "disable");
      });
      const result = {
        tenant_id: tenantId,
        subject_user_id: member.id,
        email: member.email,
        role: member.role,
        status: member.status,
      };
      audited(result);
      out(result, `${member.email}: ${member.role}, ${member.status}\n`);
      return EXIT.ok;
    },
    spec.name,
  );
}

/** The team service speaks problem+json codes; the CLI reports them as a refusal (exit 1). */
async function refusedAsAdminError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw new AdminError(`${error.message} (${error.code})`);
    throw error;
  }
}

interface OverridesFile {
  language: string;
  namespace: string;
  path: string;
  overrides: unknown;
}

function readOverridesDir(dir: string): OverridesFile[] {
  const files: OverridesFile[] = [];
  let languages: string[];
  try {
    languages = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch (error) {
    throw new AdminError(`Cannot read ${dir}: ${(error as NodeJS.ErrnoException).code}`);
  }
  for (const language of languages) {
    for (const file of readdirSync(join(dir, language)).sort()) {
      if (!file.endsWith(".json")) continue;
      const namespace = file.slice(0, -".json".length);
      const path = join(dir, language, file);
      if (!NAMESPACE.test(namespace))
        throw new AdminError(`${path}: '${namespace}' is not a namespace name ([A-Za-z0-9_-]).`);
      let overrides: unknown;
      try {
        overrides = JSON.parse(readFileSync(path, "utf8"));
      } catch (error) {
        throw new AdminError(`${path}: not valid JSON (${(error as Error).message}).`);
      }
      files.push({ language, namespace, path, overrides });
    }
  }
  if (files.length === 0)
    throw new AdminError(`No <language>/<namespace>.json files under ${dir}.`);
  return files;
}

export async function overridesCommand(args: string[], io: CliIo): Promise<number> {
  const [spec, rest] = subcommandOf(OVERRIDES, args);
  const sub = spec.name.slice("overrides ".length);
  const { values } = parseFor(spec, rest);
  const out = output(io, values.json === true);
  const tenantId = required(values, "tenant");
  const dir = resolve(io.cwd, required(values, "dir"));
  return withCore(
    io,
    values.db,
    async ({ tenants, vocabulary }, audited) => {
      await tenants.get(tenantId);
      if (sub === "export") {
        const records = await vocabulary.list(tenantId);
        for (const r of records) {
          mkdirSync(join(dir, r.language), { recursive: true });
          const overrides = JSON.parse(r.overrides);
          writeFileSync(
            join(dir, r.language, `${r.namespace}.json`),
            `${JSON.stringify(overrides, null, 2)}\n`,
          );
        }
        out(
          { dir, files: records.map((r) => `${r.language}/${r.namespace}.json`) },
          `Exported ${records.length} override file(s) to ${dir}.\n`,
        );
        return EXIT.ok;
      }
      const files = readOverridesDir(dir);
      // Check every file before writing any, so a bad one imports nothing.
      const checked = await vocabulary.check(files);
      const report: { file: string; added: number; changed: number; removed: number }[] = [];
      for (const file of checked) {
        const { changes, language } = await vocabulary.replace(
          tenantId,
          file.namespace,
          file.language,
          file.overrides,
          null,
        );
        report.push({
          file: `${language}/${file.namespace}.json`,
          added: changes.added.length,
          changed: changes.changed.length,
          removed: changes.removed.length,
        });
      }
      audited({ tenant_id: tenantId, files: report });
      out(
        report,
        report
          .map(
            (r) =>
              `${r.file.slice(0, -".json".length)}: ${r.added} added, ${r.changed} changed, ${r.removed} removed\n`,
          )
          .join(""),
      );
      return EXIT.ok;
    },
    spec.name,
  );
}
