/**
 * The Python SDK (packages/partner-sdk-python) as a partner gets it: built into a wheel and an
 * sdist with mypy --strict clean, its pytest suite run against a real gateway (through the
 * harness), and the wheel installed into a fresh virtual environment where the README's first
 * example creates an order.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartnerClient } from "../src/index.js";
import { createPartner, type TestPartner } from "./support/gateway.js";
import { type Harness, startHarness } from "./support/harness.js";
import { run } from "./support/run.js";
import { runtime } from "./support/runtime.js";

const PACKAGE = fileURLToPath(new URL("../../partner-sdk-python/", import.meta.url));
const hasPython = runtime(
  "python3",
  ["-c", "import venv, ensurepip"],
  "apt-get install python3-venv",
  true,
);

const hasPython39 = [
  join(process.env.PYENV_ROOT ?? join(homedir(), ".pyenv"), "versions"),
  "/usr/bin",
].some((dir) => existsSync(dir) && readdirSync(dir).some((name) => /^(python)?3\.9/.test(name)));

/** The README's first ```python block, as written. */
export function readmeExample(): string {
  const readme = readFileSync(join(PACKAGE, "README.md"), "utf8");
  const code = /```python\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!code?.includes("sales_orders.create")) throw new Error("no create example in README");
  return code;
}

let harness: Harness;
let dir: string;

beforeAll(async () => {
  harness = await startHarness();
  dir = mkdtempSync(join(tmpdir(), "orderline-python-sdk-"));
}, 60_000);
afterAll(async () => {
  await harness?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasPython)("the Python SDK", () => {
  it("builds a wheel and an sdist, mypy --strict clean", async () => {
    const built = await run("bash", ["scripts/build.sh"], { cwd: PACKAGE });
    expect(built.code, built.out).toBe(0);
    expect(built.out).toContain("Success: no issues found");
    // Where the oldest supported Python is installed (pyenv on these machines), every module
    // compiles under it.
    if (hasPython39) expect(built.out).toMatch(/Python 3\.9\.\d+ compiles \d+ modules/);
    expect(readdirSync(join(PACKAGE, "dist")).sort()).toEqual([
      "orderline-partner-0.1.0.tar.gz",
      "orderline_partner-0.1.0-py3-none-any.whl",
    ]);
  }, 300_000);

  it("passes its pytest suite against the real gateway", async () => {
    const result = await run(".venv/bin/python", ["-m", "pytest", "-q", "-p", "no:cacheprovider"], {
      cwd: PACKAGE,
      env: { ORDERLINE_TEST_HARNESS: harness.url, PYTHONPATH: join(PACKAGE, "src") },
    });
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(/\d+ passed/);
    expect(result.out).not.toMatch(/failed|error/i);
  }, 300_000);

  it("runs the README example from the wheel in a fresh virtual environment to a created order", async () => {
    const venv = join(dir, "venv");
    const made = await run("python3", ["-m", "venv", venv], { cwd: dir });
    expect(made.code, made.out).toBe(0);
    const wheel = join(PACKAGE, "dist", "orderline_partner-0.1.0-py3-none-any.whl");
    const installed = await run(
      join(venv, "bin/python"),
      ["-m", "pip", "install", "-q", "--disable-pip-version-check", "--retries", "0", wheel],
      { cwd: dir },
    );
    expect(installed.code, installed.out).toBe(0);

    const partner: TestPartner = await createPartner(harness.gateway.gw);
    const keyFile = join(dir, "private.pem");
    writeFileSync(keyFile, partner.keys.privatePem, { mode: 0o600 });
    const script = join(dir, "order.py");
    writeFileSync(script, readmeExample());
    // Run from the temporary folder, so only the installed wheel can be imported.
    const result = await run(join(venv, "bin/python"), [script], {
      cwd: dir,
      env: {
        ORDERLINE_BASE_URL: harness.gateway.url,
        ORDERLINE_CLIENT_ID: partner.clientId,
        ORDERLINE_CLIENT_SECRET: partner.clientSecret,
        ORDERLINE_PRIVATE_KEY_FILE: keyFile,
      },
    });
    expect(result.code, result.out).toBe(0);
    const [number, status] = result.out.trim().split(/\s+/);
    expect(status).toBe("received");
    const client = createPartnerClient({
      baseUrl: harness.gateway.url,
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
      privateKey: partner.keys.privatePem,
    });
    const orders = [];
    for await (const order of client.salesOrders.iterate()) orders.push(order.order_number);
    expect(orders).toEqual([number]);
  }, 300_000);
});
