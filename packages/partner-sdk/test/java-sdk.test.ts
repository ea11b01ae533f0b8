/**
 * The Java SDK (packages/partner-sdk-java) as a partner gets it: the jar built with javac and
 * jar, its JUnit 5 tests run against a real gateway (through the harness), and the README's
 * complete class run against the jar to a created order.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartnerClient } from "../src/index.js";
import { createPartner } from "./support/gateway.js";
import { type Harness, startHarness } from "./support/harness.js";
import { run } from "./support/run.js";
import { runtime } from "./support/runtime.js";

const PACKAGE = fileURLToPath(new URL("../../partner-sdk-java/", import.meta.url));
const JAR = join(PACKAGE, "build/orderline-partner-0.1.0.jar");
const JUNIT =
  process.env.JUNIT_CONSOLE_JAR ?? "/usr/share/java/junit-platform-console-standalone.jar";
const hasJava = runtime("javac", ["-version"], "apt-get install default-jdk-headless", true);

let harness: Harness;
let dir: string;

beforeAll(async () => {
  harness = await startHarness();
  dir = mkdtempSync(join(tmpdir(), "orderline-java-sdk-"));
}, 60_000);
afterAll(async () => {
  await harness?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The README's first ```java block: a complete class with main. */
function readmeExample(): string {
  const readme = readFileSync(join(PACKAGE, "README.md"), "utf8");
  const code = /```java\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!code?.includes("public static void main")) throw new Error("no main class in README");
  return code;
}

describe.skipIf(!hasJava)("the Java SDK", () => {
  it("builds its jar and passes its JUnit 5 tests against the real gateway", async () => {
    const built = await run("bash", ["scripts/build.sh"], { cwd: PACKAGE });
    expect(built.code, built.out).toBe(0);
    const tests = await run(
      "java",
      [
        "-jar",
        JUNIT,
        "--disable-banner",
        "--disable-ansi-colors",
        "--details=tree",
        "-cp",
        `build/test-classes:${JAR}`,
        "--select-class",
        "com.orderline.partner.PartnerClientTest",
      ],
      { cwd: PACKAGE, env: { ORDERLINE_TEST_HARNESS: harness.url } },
    );
    expect(tests.code, tests.out).toBe(0);
    expect(tests.out).toMatch(/\[\s+[1-9]\d* tests successful\s+\]/);
    expect(tests.out).toMatch(/\[\s+0 tests failed\s+\]/);
  }, 300_000);

  it("runs the README's class against the jar to a created order", async () => {
    const partner = await createPartner(harness.gateway.gw);
    const keyFile = join(dir, "private.pem");
    writeFileSync(keyFile, partner.keys.privatePem, { mode: 0o600 });
    writeFileSync(join(dir, "CreateOrder.java"), readmeExample());
    const result = await run("java", ["-cp", JAR, "CreateOrder.java"], {
      cwd: dir,
      env: {
        ORDERLINE_BASE_URL: harness.gateway.url,
        ORDERLINE_CLIENT_ID: partner.clientId,
        ORDERLINE_CLIENT_SECRET: partner.clientSecret,
        ORDERLINE_PRIVATE_KEY_FILE: keyFile,
      },
    });
    expect(result.code, result.out).toBe(0);
    const [number, status] = result.stdout.trim().split(/\s+/);
    expect(status).toBe("received");
    const client = createPartnerClient({
      baseUrl: harness.gateway.url,
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
      privateKey: partner.keys.privatePem,
    });
    const orders: string[] = [];
    for await (const order of client.salesOrders.iterate()) orders.push(order.order_number);
    expect(orders).toEqual([number]);
  }, 120_000);
});
