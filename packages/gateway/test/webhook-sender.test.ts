import type { LookupAddress, lookup } from "node:dns";
import { afterEach, describe, expect, it } from "vitest";
import { addressRefusal, urlRefusal } from "../src/domain/webhooks/address-guard.js";
import { backoffMs } from "../src/domain/webhooks/backoff.js";
import {
  ADDRESS_POLICY_REFUSAL,
  createSender,
  type Sender,
} from "../src/domain/webhooks/delivery.js";
import { Receiver } from "./support/receiver.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A DNS that answers `addresses` for every name: what a rebinding attacker's server does. */
const dnsAnswering = (...addresses: string[]): typeof lookup =>
  ((_host: string, _options: unknown, callback: (e: null, a: LookupAddress[]) => void) =>
    callback(
      null,
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    )) as unknown as typeof lookup;

/** A DNS that knows no name, as the resolver answers for a host that does not exist. */
const dnsKnowingNothing: typeof lookup = ((
  host: string,
  _options: unknown,
  callback: (e: NodeJS.ErrnoException) => void,
) =>
  callback(
    Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" }),
  )) as unknown as typeof lookup;

function sender(options: Partial<Parameters<typeof createSender>[0]> = {}): Sender {
  const s = createSender({ policy: "none", timeoutMs: 2000, maxSockets: 2, ...options });
  cleanups.push(() => s.close());
  return s;
}

async function receiver(): Promise<Receiver> {
  const r = await new Receiver().start();
  cleanups.push(() => r.stop());
  return r;
}

const BODY = JSON.stringify({ id: "evt_test", type: "order.created", data: {} });

describe("webhook sender: where deliveries may go", () => {
  it("refuses a loopback address literal without connecting, unless loopback is allowed", async () => {
    const r = await receiver();
    const told: string[] = [];
    const refused = await sender({ onRefused: (_host, detail) => told.push(detail) }).post(
      r.url,
      BODY,
      {},
    );
    expect(refused).toMatchObject({ ok: false, status: null, error: ADDRESS_POLICY_REFUSAL });
    expect(told.join()).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(r.received).toHaveLength(0);

    const allowed = await sender({ policy: "loopback" }).post(r.url, BODY, {});
    expect(allowed).toMatchObject({ ok: true, status: 204, error: null });
    expect(r.received).toHaveLength(1);
  });

  it("a name that does not resolve reads the same whatever the resolver said (no DNS oracle)", async () => {
    const told: string[] = [];
    const unresolved = await sender({
      resolve: dnsKnowingNothing,
      onRefused: (host, detail) => told.push(`${host} ${detail}`),
    }).post("http://billing.internal.example/hooks", BODY, {});
    // The same words as a name resolving to a refused address: no telling which names exist.
    expect(unresolved).toMatchObject({ ok: false, status: null, error: ADDRESS_POLICY_REFUSAL });
    expect(unresolved.error).not.toMatch(/ENOTFOUND|internal/);
    expect(told.at(-1)).toMatch(/billing\.internal\.example getaddrinfo ENOTFOUND/);
  });

  it("checks the address a name resolves to when connecting (DNS rebinding)", async () => {
    const r = await receiver();
    const url = `http://hooks.partner.example:${r.port}/hooks`;
    // The name passed the URL check; at connect time it resolves to this machine.
    // The partner reads only that the policy refused it, never what the name resolved to (a
    // DNS oracle); the operator's log is told the address.
    const told: string[] = [];
    const onRefused = (host: string, detail: string) => told.push(`${host} ${detail}`);
    const refused = await sender({ resolve: dnsAnswering("127.0.0.1"), onRefused }).post(
      url,
      BODY,
      {},
    );
    expect(refused.ok).toBe(false);
    expect(refused.error).toBe(ADDRESS_POLICY_REFUSAL);
    expect(told.at(-1)).toMatch(/hooks\.partner\.example 127\.0\.0\.1 is a loopback/);
    // One private answer among public ones is enough to refuse.
    const mixed = await sender({
      resolve: dnsAnswering("93.184.216.34", "10.1.2.3"),
      onRefused,
    }).post(url, BODY, {});
    expect(mixed.error).toBe(ADDRESS_POLICY_REFUSAL);
    expect(told.at(-1)).toMatch(/10\.1\.2\.3 is a private address/);
    // An AAAA answer carrying a loopback or metadata IPv4 address is refused like the IPv4 one.
    for (const address of ["::7f00:1", "::ffff:7f00:1", "::a9fe:a9fe"]) {
      const carried = await sender({ resolve: dnsAnswering(address), onRefused }).post(
        url,
        BODY,
        {},
      );
      expect(carried.ok, address).toBe(false);
      expect(carried.error, address).toBe(ADDRESS_POLICY_REFUSAL);
      expect(told.at(-1), address).toMatch(/ .* is a (loopback|linkLocal) address/);
    }
    expect(r.received).toHaveLength(0);

    const allowed = await sender({
      policy: "loopback",
      resolve: dnsAnswering("127.0.0.1"),
    }).post(url, BODY, {});
    expect(allowed.ok).toBe(true);
    expect(r.received).toHaveLength(1);
  });

  it("follows no redirect and gives up on a receiver that does not answer in time", async () => {
    const r = await receiver();
    r.answer = () => 302;
    const redirected = await sender({ policy: "loopback" }).post(r.url, BODY, {});
    expect(redirected).toMatchObject({ ok: false, status: 302 });
    expect(redirected.error).toContain("redirects are not followed");
    expect(r.received).toHaveLength(1);

    r.answer = () => "hold";
    const slow = await sender({ policy: "loopback", timeoutMs: 300 }).post(r.url, BODY, {});
    expect(slow).toMatchObject({ ok: false, status: null, error: "timed out after 300 ms" });
  });

  it("judges URLs and addresses by policy", () => {
    expect(urlRefusal("https://hooks.example.com/x", "none")).toBeUndefined();
    expect(urlRefusal("http://localhost./x", "none")).toMatch(/localhost/);
    expect(urlRefusal("http://LOCALHOST/x", "none")).toMatch(/localhost/);
    expect(urlRefusal("http://localhost/x", "loopback")).toBeUndefined();
    expect(urlRefusal("http://10.0.0.1/x", "loopback")).toMatch(/private/);
    expect(urlRefusal("http://10.0.0.1/x", "all")).toBeUndefined();
    expect(urlRefusal("http://[fd00::1]/x", "none")).toMatch(/uniqueLocal/);
    expect(urlRefusal("http://[::ffff:10.0.0.1]/x", "none")).toMatch(/private/);
    // IPv4-compatible, -mapped and -translated IPv6 forms are judged as the IPv4 they carry,
    // however the URL parser rewrites them (`[::127.0.0.1]` becomes `[::7f00:1]`).
    for (const [host, range] of [
      ["::127.0.0.1", /loopback/],
      ["::7f00:1", /loopback/],
      ["::10.0.0.1", /private/],
      ["::169.254.169.254", /linkLocal/],
      ["::ffff:169.254.169.254", /linkLocal/],
      ["::ffff:a9fe:a9fe", /linkLocal/],
      ["::ffff:0:10.0.0.1", /private/],
      ["0:0:0:0:0:ffff:192.168.1.1", /private/],
    ] as const) {
      expect(urlRefusal(`http://[${host}]/x`, "none"), host).toMatch(range);
      expect(addressRefusal(host, "none"), host).toMatch(range);
    }
    expect(urlRefusal("http://[::127.0.0.1]/x", "loopback")).toBeUndefined();
    expect(urlRefusal("http://[::10.0.0.1]/x", "loopback")).toMatch(/private/);
    expect(addressRefusal("::8.8.8.8", "none")).toBeUndefined();
    expect(urlRefusal(`https://example.com/${"a".repeat(2100)}`, "all")).toMatch(/longer/);
    expect(addressRefusal("224.0.0.1", "all")).toMatch(/multicast/);
    expect(addressRefusal("0.0.0.0", "all")).toMatch(/unspecified/);
    expect(addressRefusal("8.8.8.8", "none")).toBeUndefined();
  });
});

describe("webhook backoff", () => {
  it("doubles from the base up to the cap, jittered within the upper half", () => {
    const options = { baseMs: 1000, maxMs: 60_000 };
    expect(backoffMs(1, options, () => 0)).toBe(500);
    expect(backoffMs(1, options, () => 1)).toBe(1000);
    expect(backoffMs(4, options, () => 1)).toBe(8000);
    expect(backoffMs(30, options, () => 0)).toBe(30_000);
    expect(backoffMs(30, options, () => 1)).toBe(60_000);
  });
});
