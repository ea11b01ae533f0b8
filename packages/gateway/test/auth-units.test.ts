import { generateKeyPairSync, scryptSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { defaultHashConcurrency, loadConfig, trustProxyFrom } from "../src/config/config.js";
import { addressBucket } from "../src/lib/address-bucket.js";
import { parseDuration } from "../src/lib/duration.js";
import {
  FairHashQueue,
  QueueFull,
  STRIKE_WINDOW_MS,
  STRIKES,
} from "../src/security/fair-hash-queue.js";
import { verifyCompactJws } from "../src/security/jws.js";
import { lockSecondsFor } from "../src/security/login-throttle.js";
import { hashPassword, verifyPassword } from "../src/security/passwords.js";
import { ScryptThreads } from "../src/security/scrypt-threads.js";

describe("addressBucket", () => {
  it("counts IPv4 by address and IPv6 by /64, a mapped IPv4 as IPv4", () => {
    expect(addressBucket("203.0.113.9")).toBe("203.0.113.9");
    expect(addressBucket("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressBucket("2001:db8:1:2::1")).toBe("2001:0db8:0001:0002::/64");
    expect(addressBucket("2001:DB8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:0db8:0001:0002::/64");
    expect(addressBucket("2001:db8:1:3::1")).not.toBe(addressBucket("2001:db8:1:2::1"));
    expect(addressBucket("::1")).toBe("0000:0000:0000:0000::/64");
    expect(addressBucket("fe80::1%eth0")).toBe("fe80:0000:0000:0000::/64");
  });
});

const SHARES = { concurrency: 2, reserved: 0, maxQueue: 1, perSource: 8, perAccount: 8 };
const ticket = (source: string, priority: 0 | 1 | 2 = 1, account = "acct") => ({
  source,
  account,
  priority,
});

/** A task that starts, records that, and ends when its gate opens. */
function gatedTasks() {
  const order: string[] = [];
  const gates = new Map<string, () => void>();
  const task = (name: string) => () =>
    new Promise<string>((resolve) => {
      order.push(name);
      gates.set(name, () => resolve(name));
    });
  return { order, task, open: (name: string) => gates.get(name)?.() };
}

describe("FairHashQueue", () => {
  it("runs at most `concurrency` checks, queues `maxQueue`, refuses the rest", async () => {
    const queue = new FairHashQueue(SHARES);
    const { order, task, open } = gatedTasks();
    const a = queue.run(ticket("s1"), task("a"));
    const b = queue.run(ticket("s2"), task("b"));
    const c = queue.run(ticket("s3"), task("c"));
    await Promise.resolve();
    expect([queue.active, queue.queued]).toEqual([2, 1]);
    await expect(queue.run(ticket("s4"), task("d"))).rejects.toBeInstanceOf(QueueFull);
    expect(order).toEqual(["a", "b"]);
    open("a");
    expect(await a).toBe("a");
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(["a", "b", "c"]);
    open("b");
    open("c");
    expect([await b, await c]).toEqual(["b", "c"]);
    expect([queue.active, queue.queued]).toEqual([0, 0]);
  });

  it("refuses a source over its share, and an account over a flood's share, before running; never a clean address for it", async () => {
    const queue = new FairHashQueue({
      ...SHARES,
      concurrency: 1,
      reserved: 1,
      maxQueue: 8,
      perSource: 1,
      perAccount: 2,
    });
    const { order, task, open } = gatedTasks();
    const held = queue.run(ticket("flood-1", 2, "victim"), task("f1"));
    await expect(queue.run(ticket("flood-1", 2, "victim"), task("again"))).rejects.toBeInstanceOf(
      QueueFull,
    );
    const second = queue.run(ticket("flood-2", 2, "victim"), task("f2"));
    await expect(queue.run(ticket("flood-3", 2, "victim"), task("f3"))).rejects.toBeInstanceOf(
      QueueFull,
    );
    // A clean address new to the account is not held to the flood's share: it starts at once.
    const fresh = queue.run(ticket("new", 1, "victim"), task("new"));
    await Promise.resolve();
    expect(order).toEqual(["f1", "new"]);
    open("new");
    await fresh;
    open("f1");
    await held;
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(["f1", "new", "f2"]);
    open("f2");
    await second;
    expect([queue.active, queue.queued]).toEqual([0, 0]);
  });

  it("counts an address it keeps refusing as flooding, for a minute after the last refusal", async () => {
    let now = 0;
    const queue = new FairHashQueue(
      { ...SHARES, concurrency: 1, reserved: 1, maxQueue: 8, perSource: 1 },
      () => now,
    );
    const { task, open } = gatedTasks();
    const held = queue.run(ticket("loud"), task("first"));
    for (let i = 0; i < STRIKES; i++) {
      expect(queue.flooding("loud")).toBe(false);
      await expect(queue.run(ticket("loud"), task("again"))).rejects.toBeInstanceOf(QueueFull);
    }
    expect([queue.flooding("loud"), queue.flooding("quiet")]).toEqual([true, false]);
    open("first");
    await held;
    // Served at the flood's priority (the caller hashes it on the low-priority threads)…
    const servedAt = (source: string) => queue.run(ticket(source), async (priority) => priority);
    expect(await servedAt("loud")).toBe(2);
    expect(await servedAt("quiet")).toBe(1);
    // …until a minute has passed without a refusal.
    now += STRIKE_WINDOW_MS;
    expect(queue.flooding("loud")).toBe(false);
    expect(await servedAt("loud")).toBe(1);
  });

  it("lets one round of clean addresses wait; a newcomer takes the place of the most refused, oldest one", async () => {
    const queue = new FairHashQueue({ ...SHARES, concurrency: 1, reserved: 1, maxQueue: 8 });
    const { order, task, open } = gatedTasks();
    // A flood's first contact: four addresses never seen, at once.
    const [a, b, c, d] = ["a", "b", "c", "d"].map((name) => queue.run(ticket(name), task(name)));
    await Promise.resolve();
    expect([queue.active, queue.queued]).toEqual([2, 2]);
    // A person arriving later waits in the place of the oldest waiting one…
    const person = queue.run(ticket("person"), task("person"));
    await expect(c).rejects.toBeInstanceOf(QueueFull);
    // …which, coming straight back, is refused: it was refused more than those waiting.
    await expect(queue.run(ticket("c"), task("c"))).rejects.toBeInstanceOf(QueueFull);
    expect(queue.queued).toBe(2);
    // An address that signed in lately still waits, ahead of them.
    const owner = queue.run(ticket("owner", 0), task("owner"));
    expect(queue.queued).toBe(3);
    for (const name of ["a", "b", "owner", "d", "person"]) {
      open(name);
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all([a, b, d, person, owner]);
    expect(order).toEqual(["a", "b", "owner", "d", "person"]);
  });

  it("tells in advance which checks it would refuse, so a flood can be refused before other work", async () => {
    const queue = new FairHashQueue({ ...SHARES, concurrency: 1, maxQueue: 1, perSource: 1 });
    const { task, open } = gatedTasks();
    expect(queue.refusalFor("f0", 2)).toBeUndefined();
    const running = queue.run(ticket("f0", 2), task("f0"));
    // The source already holds its share.
    expect(queue.refusalFor("f0", 2)).toBeInstanceOf(QueueFull);
    // Room to wait: not refused.
    expect(queue.refusalFor("f1", 2)).toBeUndefined();
    const waiting = queue.run(ticket("f1", 2), task("f1"));
    // Full of flood: another flood check is refused, a better one would push it out.
    expect(queue.refusalFor("f2", 2)).toBeInstanceOf(QueueFull);
    await expect(queue.run(ticket("f2", 2), task("f2"))).rejects.toBeInstanceOf(QueueFull);
    expect(queue.refusalFor("clean", 1)).toBeUndefined();
    open("f0");
    await running;
    await new Promise((r) => setImmediate(r));
    open("f1");
    await waiting;
    expect(queue.refusalFor("f2", 2)).toBeUndefined();
  });

  it("pushes the newest waiting check of the worst priority out for a better one", async () => {
    const queue = new FairHashQueue({ ...SHARES, concurrency: 1, maxQueue: 2 });
    const { order, task, open } = gatedTasks();
    const running = queue.run(ticket("f0", 2), task("f0"));
    const older = queue.run(ticket("f1", 2), task("f1"));
    const newer = queue.run(ticket("f2", 2), task("f2"));
    // Same priority as everything waiting: refused, nobody pushed out.
    await expect(queue.run(ticket("f3", 2), task("f3"))).rejects.toBeInstanceOf(QueueFull);
    const signedInBefore = queue.run(ticket("known", 0), task("known"));
    await expect(newer).rejects.toBeInstanceOf(QueueFull);
    const clean = queue.run(ticket("clean", 1), task("clean"));
    await expect(older).rejects.toBeInstanceOf(QueueFull);
    open("f0");
    await running;
    await new Promise((r) => setImmediate(r));
    open("known");
    await signedInBefore;
    await new Promise((r) => setImmediate(r));
    open("clean");
    await clean;
    expect(order).toEqual(["f0", "known", "clean"]);
    expect([queue.active, queue.queued]).toEqual([0, 0]);
  });

  it("frees the slot and the shares when a check fails, and estimates the wait from past durations", async () => {
    let now = 0;
    const queue = new FairHashQueue(
      { concurrency: 1, reserved: 0, maxQueue: 0, perSource: 1, perAccount: 1 },
      () => now,
    );
    await expect(
      queue.run(ticket("s", 2), async () => {
        now += 3000;
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(queue.active).toBe(0);
    let release = () => {};
    const held = queue.run(ticket("s", 2), () => new Promise<void>((r) => (release = r)));
    const refused = await queue.run(ticket("t"), async () => {}).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(QueueFull);
    expect((refused as QueueFull).retryAfterSeconds).toBe(3);
    release();
    await held;
  });

  it("keeps the reserved threads for addresses that are not flooding", async () => {
    const queue = new FairHashQueue({ ...SHARES, concurrency: 1, reserved: 1, maxQueue: 4 });
    const { order, task, open } = gatedTasks();
    const flood = [queue.run(ticket("f1", 2), task("f1")), queue.run(ticket("f2", 2), task("f2"))];
    await Promise.resolve();
    // One flood check runs, the other waits: the reserved thread is not for it.
    expect([queue.active, queue.queued]).toEqual([1, 1]);
    // A clean address new to the account takes it at once; the owner waits for it, ahead of
    // the flood.
    const fresh = queue.run(ticket("fresh", 1), task("fresh"));
    const owner = queue.run(ticket("owner", 0), task("owner"));
    await Promise.resolve();
    expect(order).toEqual(["f1", "fresh"]);
    open("fresh");
    await fresh;
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(["f1", "fresh", "owner"]);
    open("f1");
    await flood[0];
    await new Promise((r) => setImmediate(r));
    // A flood's check starts only while fewer than `concurrency` checks of any kind run.
    expect(order).toEqual(["f1", "fresh", "owner"]);
    open("owner");
    await owner;
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(["f1", "fresh", "owner", "f2"]);
    open("f2");
    await flood[1];
    expect([queue.active, queue.queued]).toEqual([0, 0]);
  });

  it("refuses nonsensical shares", () => {
    expect(() => new FairHashQueue({ ...SHARES, concurrency: 0 })).toThrow("concurrency");
    expect(() => new FairHashQueue({ ...SHARES, maxQueue: -1 })).toThrow("maxQueue");
    expect(() => new FairHashQueue({ ...SHARES, perSource: 0 })).toThrow("perSource");
  });
});

describe("configuration of the login limits", () => {
  it("leaves two threads of libuv's pool and one core free of hashing", () => {
    expect(defaultHashConcurrency({}, 8)).toBe(2);
    expect(defaultHashConcurrency({ UV_THREADPOOL_SIZE: "8" }, 16)).toBe(6);
    expect(defaultHashConcurrency({ UV_THREADPOOL_SIZE: "2" }, 16)).toBe(1);
    expect(defaultHashConcurrency({}, 2)).toBe(1);
    expect(defaultHashConcurrency({}, 1)).toBe(1);
    expect(loadConfig({}).hashing).toEqual({
      concurrency: defaultHashConcurrency({}),
      queue: 16,
      reserved: 1,
      perSource: 2,
      perAccount: 2,
    });
    expect(
      loadConfig({
        GATEWAY_HASH_CONCURRENCY: "3",
        GATEWAY_HASH_QUEUE: "0",
        GATEWAY_HASH_PER_SOURCE: "4",
        GATEWAY_HASH_PER_ACCOUNT: "3",
      }).hashing,
    ).toEqual({ concurrency: 3, queue: 0, reserved: 1, perSource: 4, perAccount: 3 });
    // A share of none would refuse every sign-in: refused at start, not quietly raised to 1.
    expect(() => loadConfig({ GATEWAY_HASH_PER_ACCOUNT: "0" })).toThrow(
      "an integer from 1 to 10000",
    );
    for (const bad of ["0", "65"])
      expect(() => loadConfig({ GATEWAY_HASH_CONCURRENCY: bad })).toThrow(
        "an integer from 1 to 64",
      );
  });

  it("trusts no proxy unless told which, and refuses to trust every peer", () => {
    expect(trustProxyFrom(undefined)).toBe(false);
    expect(trustProxyFrom("false")).toBe(false);
    expect(trustProxyFrom("1")).toBe(1);
    expect(trustProxyFrom("10.0.0.0/8, 192.168.1.4,loopback")).toEqual([
      "10.0.0.0/8",
      "192.168.1.4",
      "loopback",
    ]);
    expect(() => trustProxyFrom("true")).toThrow("X-Forwarded-For");
    expect(() => trustProxyFrom("proxy.internal")).toThrow("'proxy.internal'");
    expect(loadConfig({ GATEWAY_TRUST_PROXY: "127.0.0.1" }).trustProxy).toEqual(["127.0.0.1"]);
  });

  it("locks after the free failures of a bucket, doubling up to 15 minutes", () => {
    expect([49, 50, 51, 52, 70].map((n) => lockSecondsFor(n, 50))).toEqual([0, 2, 4, 8, 900]);
    expect(lockSecondsFor(100_000, 5)).toBe(900);
  });
});

describe("parseDuration (--grace)", () => {
  it("reads seconds, minutes, hours and days, and nothing else", () => {
    expect(parseDuration("90s")).toBe(90_000);
    expect(parseDuration("30m")).toBe(1_800_000);
    expect(parseDuration("12h")).toBe(43_200_000);
    expect(parseDuration("7d")).toBe(604_800_000);
    expect(parseDuration("0")).toBe(0);
    for (const bad of ["", "12", "1.5h", "-1h", "1w", "h", "24 hours"])
      expect(parseDuration(bad), bad).toBeUndefined();
  });
});

describe("verifyCompactJws", () => {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const jws = (header: Record<string, unknown>, payload: unknown = { sub: "x" }) => {
    const input = `${b64(header)}.${b64(payload)}`;
    return `${input}.${sign(null, Buffer.from(input), privateKey).toString("base64url")}`;
  };
  const keyFor = async (kid: string | undefined) => (kid === "k1" ? publicKey : undefined);

  it("returns the payload of a token signed by a known key", async () => {
    const payload = await verifyCompactJws(jws({ alg: "EdDSA", kid: "k1" }), keyFor);
    expect(JSON.parse(Buffer.from(payload as Uint8Array).toString())).toEqual({ sub: "x" });
  });

  it("refuses other algorithms, unknown keys, extra critical headers and altered tokens", async () => {
    const good = jws({ alg: "EdDSA", kid: "k1" });
    const [h, p, s] = good.split(".");
    const refused = [
      jws({ alg: "none", kid: "k1" }),
      `${b64({ alg: "none", kid: "k1" })}.${p}.`,
      jws({ alg: "HS256", kid: "k1" }),
      jws({ alg: "EdDSA", kid: "k2" }),
      jws({ alg: "EdDSA", kid: 1 }),
      jws({ alg: "EdDSA", kid: "k1", crit: ["exp"] }),
      jws({ alg: "EdDSA", kid: "k1", b64: false }),
      `${h}.${b64({ sub: "y" })}.${s}`,
      `${h}.${p}.${s}x`,
      `${h}.${p}`,
      `${h}.${p}.${s}.${s}`,
      `${b64("EdDSA")}.${p}.${s}`,
      "not a token",
    ];
    for (const token of refused)
      expect(await verifyCompactJws(token, keyFor), token).toBeUndefined();
  });
});

describe("ScryptThreads", () => {
  it("derives what node:crypto derives, on its own threads, and reports bad parameters", async () => {
    const threads = new ScryptThreads(2);
    try {
      const salt = Buffer.from("0123456789abcdef");
      const options = { N: 1024, r: 8, p: 1 };
      const keys = await Promise.all(
        ["one", "two", "three"].map((pw) => threads.scrypt(pw, salt, 32, options)),
      );
      expect(keys.map((k) => k.toString("hex"))).toEqual(
        ["one", "two", "three"].map((pw) => scryptSync(pw, salt, 32, options).toString("hex")),
      );
      const hash = await hashPassword("a password of length", 1024, threads.scrypt);
      expect(await verifyPassword("a password of length", hash, threads.scrypt)).toBe(true);
      expect(await verifyPassword("a password of length", hash)).toBe(true);
      expect(await verifyPassword("another password!!", hash, threads.scrypt)).toBe(false);
      await expect(threads.scrypt("x", salt, 32, { N: 1000 })).rejects.toThrow();
      // A failed job leaves the thread usable.
      expect((await threads.scrypt("one", salt, 32, options)).equals(keys[0] as Buffer)).toBe(true);
    } finally {
      await threads.close();
    }
    await expect(threads.scrypt("x", Buffer.alloc(16), 32, {})).rejects.toThrow("closed");
  });
});
