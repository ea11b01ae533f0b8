/**
 * The built gateway (`dist/cli/main.js`) as operators run it, in child processes: the order
 * writer thread, signal handling and process exit exist only there.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { KeyObject } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";
import { distinctTimestamp, signatureOf } from "../helpers.js";

export const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export interface ProcessEnv {
  /** DATABASE_URL of the store every process of a test shares. */
  databaseUrl: string;
  /** Master key and data directory, the same for every instance (as in a real deployment). */
  dataDir: string;
  extra?: Record<string, string>;
}

const MASTER_KEY = "5e".repeat(32);

function envOf(options: ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    GATEWAY_DATA_DIR: options.dataDir,
    GATEWAY_MASTER_KEY: MASTER_KEY,
    REDIS_URL: "",
    // A free port each: parallel test processes must not fight over the default 9464.
    GATEWAY_METRICS_LISTEN: "127.0.0.1:0",
    // SIGTERM starts 5 s of not-ready and then up to 5 s of drain by default: a test that stops
    // its process would wait them out. The tests of those phases set them (durability,
    // rolling-restart, store-faults).
    GATEWAY_DRAIN_READY_SECONDS: "0",
    GATEWAY_DRAIN_SECONDS: "0",
    ...options.extra,
  };
}

/** Where a CLI run in this process runs, and what it reads as a password when it asks for one. */
interface CaptureOptions {
  env: CliIo["env"];
  cwd: string;
  /** The answer to every password prompt (users create, users reset-password); none: no prompt. */
  secret?: string;
}

/** An io for the CLI's `run()` (or `serve()`) that keeps what the command writes. */
interface CapturingIo {
  io: CliIo;
  stdout(): string;
  stderr(): string;
  /** stdout and stderr interleaved as written: what an operator's terminal would show. */
  output(): string;
  /** The prompts the command asked `readSecret` with. */
  prompts: string[];
  /** Forgets what was written so far (a second command on the same io). */
  clear(): void;
}

export function capturingIo(options: CaptureOptions): CapturingIo {
  const written: { to: "stdout" | "stderr"; text: string }[] = [];
  const prompts: string[] = [];
  const of = (to?: "stdout" | "stderr") =>
    written
      .filter((w) => to === undefined || w.to === to)
      .map((w) => w.text)
      .join("");
  const { secret } = options;
  return {
    io: {
      stdout: (text) => written.push({ to: "stdout", text }),
      stderr: (text) => written.push({ to: "stderr", text }),
      env: options.env,
      cwd: options.cwd,
      ...(secret === undefined
        ? {}
        : {
            readSecret: async (prompt: string) => {
              prompts.push(prompt);
              return secret;
            },
          }),
    },
    stdout: () => of("stdout"),
    stderr: () => of("stderr"),
    output: () => of(),
    prompts,
    clear: () => {
      written.length = 0;
      prompts.length = 0;
    },
  };
}

interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as written. */
  output: string;
  prompts: string[];
}

/**
 * Runs an admin CLI command to completion in this process (the `run` that `dist/cli/main.js`
 * calls) and returns its exit code and what it wrote. Not in a child: a CLI process costs about
 * a second of CPU to start; the CLI's own tests (cli*.test.ts) cover the command line as such.
 */
export async function runCaptured(args: string[], options: CaptureOptions): Promise<CapturedRun> {
  const captured = capturingIo(options);
  const code = await run(args, captured.io);
  return {
    code,
    stdout: captured.stdout(),
    stderr: captured.stderr(),
    output: captured.output(),
    prompts: captured.prompts,
  };
}

/**
 * A set-up step through the admin CLI (with the processes' environment): its stdout, or an error
 * with its stderr when it exits non-zero.
 */
export async function cli(
  options: ProcessEnv,
  args: string[],
  /** What the command reads as a password (users create, users reset-password). */
  secret?: string,
): Promise<string> {
  const result = await runCaptured(args, { env: envOf(options), cwd: process.cwd(), secret });
  if (result.code !== 0)
    throw new Error(`orderline-gateway ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

export interface RunningGateway {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  /** Everything the process wrote to stdout so far. */
  stdout(): string;
}

/** Starts `orderline-gateway serve` on `port` (0: a free one) and resolves once it listens. */
export function startProcess(
  options: ProcessEnv,
  port = 0,
  logLevel = "warn",
): Promise<RunningGateway> {
  const child = spawn(
    "node",
    [CLI, "serve", "--port", String(port), "--host", "127.0.0.1", "--log-level", logLevel],
    { stdio: ["ignore", "pipe", "inherit"], env: envOf(options) },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve({ child, url: match[1], exited, stdout: () => out });
    });
    child.once("exit", (code) => reject(new Error(`gateway exited early (${code})`)));
  });
}

export interface ProcessPartner {
  clientId: string;
  clientSecret: string;
  keyId: string;
  privateKey: KeyObject;
}

/** Creates a partner with `publicPem` through the admin CLI. */
export async function createPartnerWithCli(
  options: ProcessEnv,
  keys: { publicPem: string; privateKey: KeyObject },
  name = "Acme",
): Promise<ProcessPartner> {
  const file = join(options.dataDir, `${name.replace(/\W/g, "_")}.pem`);
  writeFileSync(file, keys.publicPem);
  const created = JSON.parse(
    await cli(options, ["partners", "create", "--name", name, "--public-key", file, "--json"]),
  );
  return {
    clientId: created.client_id,
    clientSecret: created.client_secret,
    keyId: created.key_id,
    privateKey: keys.privateKey,
  };
}

export async function loginOver(url: string, partner: ProcessPartner): Promise<string> {
  const response = await fetch(`${url}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: partner.clientId, client_secret: partner.clientSecret }),
  });
  if (response.status !== 200) throw new Error(`login failed: ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** The four signed headers (fresh timestamp) plus JSON content type. */
export function signedOver(partner: ProcessPartner, token: string): Record<string, string> {
  const ts = distinctTimestamp(String(Math.floor(Date.now() / 1000)));
  return {
    "content-type": "application/json",
    authorization: `Bearer ${token}`,
    "x-client-id": partner.clientId,
    "x-timestamp": ts,
    "x-signature": signatureOf(partner.privateKey, partner.clientId, ts),
  };
}
