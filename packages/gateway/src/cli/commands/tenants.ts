import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openCore } from "../../gateway.js";
import { AdminError } from "../../tenant/tenants.js";
import { NAMESPACE_PATTERN } from "../../tenant/vocabulary.js";
import { type CliIo, EXIT, UsageError } from "../io.js";
import { configFrom, parse, stringOption } from "../options.js";

export const TENANTS_HELP = `Usage: orderline-gateway tenants <subcommand> [options]   (store: --db FILE|URL or DATABASE_URL)

  create --name NAME [--json]    new tenant; prints its id (use it with users create and partners create --tenant)
  list [--json]                  tenants
`;

export const USERS_HELP = `Usage: orderline-gateway users <subcommand> [options]   (store: --db FILE|URL or DATABASE_URL)

  create --tenant ID --email EMAIL --role admin|member [--language TAG] [--json]
        new tenant user; the password is read from stdin when piped, else prompted (never a flag),
        at least 12 characters:  printf '%s\\n' "$PASSWORD" | orderline-gateway users create …
  set-password --email EMAIL     a new password (stdin or prompt, as above); the user's tokens stop working
  list --tenant ID [--json]      the tenant's users
`;

export const OVERRIDES_HELP = `Usage: orderline-gateway overrides <subcommand> --tenant ID --dir DIR   (store: --db FILE|URL or DATABASE_URL)

  export --tenant ID --dir DIR   writes DIR/<language>/<namespace>.json for each stored override set
  import --tenant ID --dir DIR   reads DIR/<language>/<namespace>.json: each file replaces that
                                 language's overrides of the namespace; every file is checked first,
                                 so one bad file imports nothing
`;

const NAMESPACE = new RegExp(NAMESPACE_PATTERN);

/** Opens the admin services, runs `work`, closes the store; AdminError → exit 1 with its message. */
async function withCore(
  io: CliIo,
  db: string | boolean | undefined,
  work: (core: Awaited<ReturnType<typeof openCore>>) => Promise<number>,
): Promise<number> {
  const core = await openCore(configFrom(io, db));
  try {
    return await work(core);
  } catch (error) {
    if (error instanceof AdminError) {
      io.stderr(`orderline-gateway: ${error.message}\n`);
      return EXIT.failure;
    }
    throw error;
  } finally {
    await core.store.close();
  }
}

function required(values: Record<string, unknown>, name: string, help: string): string {
  const value = stringOption(values as Parameters<typeof stringOption>[0], name);
  if (value === undefined) throw new UsageError(`--${name} is required.\n\n${help}`);
  return value;
}

const output = (io: CliIo, json: boolean) => (value: unknown, text: string) =>
  io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : text);

function subcommand(args: string[], known: string[], help: string): [string, string[]] {
  const [sub, ...rest] = args;
  if (sub === undefined || !known.includes(sub)) {
    throw new UsageError(
      `${sub === undefined ? "Missing subcommand" : `Unknown subcommand '${sub}'`}.\n\n${help}`,
    );
  }
  return [sub, rest];
}

export async function tenantsCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, rest] = subcommand(args, ["create", "list"], TENANTS_HELP);
  const { values } = parse(rest, {
    name: { type: "string" },
    json: { type: "boolean", default: false },
  });
  const out = output(io, values.json === true);
  const name = sub === "create" ? required(values, "name", TENANTS_HELP) : undefined;
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
  const [sub, rest] = subcommand(args, ["create", "set-password", "list"], USERS_HELP);
  const { values } = parse(rest, {
    tenant: { type: "string" },
    email: { type: "string" },
    role: { type: "string" },
    language: { type: "string" },
    json: { type: "boolean", default: false },
  });
  const out = output(io, values.json === true);
  if (sub === "set-password") {
    const email = required(values, "email", USERS_HELP);
    if (!io.readSecret) throw new UsageError("No way to read a password here.");
    const password = await io.readSecret(`New password for ${email}: `);
    return withCore(io, values.db, async ({ users }) => {
      await users.setPassword(email, password);
      out(
        { email, password_changed: true },
        `Password of ${email} changed; its tokens no longer work.\n`,
      );
      return EXIT.ok;
    });
  }
  const tenantId = required(values, "tenant", USERS_HELP);
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
  const email = required(values, "email", USERS_HELP);
  const role = required(values, "role", USERS_HELP);
  if (role !== "admin" && role !== "member")
    throw new UsageError(`--role must be admin or member.\n\n${USERS_HELP}`);
  if (!io.readSecret) throw new UsageError("No way to read a password here.");
  const password = await io.readSecret(`Password for ${email}: `);
  const language = stringOption(values, "language");
  return withCore(io, values.db, async ({ users }) => {
    const user = await users.create({
      tenantId,
      email,
      role,
      password,
      ...(language === undefined ? {} : { language }),
    });
    out(
      user,
      `user_id:  ${user.user_id}\nemail:    ${user.email}\nrole:     ${user.role}\nlanguage: ${user.language}\n`,
    );
    return EXIT.ok;
  });
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
  const [sub, rest] = subcommand(args, ["import", "export"], OVERRIDES_HELP);
  const { values } = parse(rest, {
    tenant: { type: "string" },
    dir: { type: "string" },
  });
  const tenantId = required(values, "tenant", OVERRIDES_HELP);
  const dir = resolve(io.cwd, required(values, "dir", OVERRIDES_HELP));
  return withCore(io, values.db, async ({ tenants, vocabulary }) => {
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
      io.stdout(`Exported ${records.length} override file(s) to ${dir}.\n`);
      return EXIT.ok;
    }
    const files = readOverridesDir(dir);
    // Check every file before writing any, so a bad one imports nothing.
    const checked = await vocabulary.check(files);
    for (const file of checked) {
      const { changes, language } = await vocabulary.replace(
        tenantId,
        file.namespace,
        file.language,
        file.overrides,
        null,
      );
      io.stdout(
        `${language}/${file.namespace}: ${changes.added.length} added, ${changes.changed.length} changed, ${changes.removed.length} removed\n`,
      );
    }
    return EXIT.ok;
  });
}
