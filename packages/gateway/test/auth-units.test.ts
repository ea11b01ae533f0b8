import { generateKeyPairSync, scryptSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyCompactJws } from "../src/auth/jws.js";
import { parseDuration } from "../src/cli/options.js";
import { defaultHashConcurrency, loadConfig, trustProxyFrom } from "../src/config.js";
import { addressBucket } from "../src/http/source-address.js";
import { BoundedConcurrency, QueueFull } from "../src/lib/bounded-concurrency.js";
import { lockSecondsFor } from "../src/users/login-throttle.js";
import { hashPassword, verifyPassword } from "../src/users/passwords.js";
import { ScryptThreads } from "../src/users/scrypt-threads.js";

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

describe("BoundedConcurrency", () => {
  it("runs at most `concurrency` tasks, queues `maxQueue` in order, refuses the rest", async () => {
    const limiter = new BoundedConcurrency(2, 1);
    const order: string[] = [];
    const gates: (() => void)[] = [];
    const task = (name: string) => () =>
      new Promise<string>((resolve) => {
        order.push(`start ${name}`);
        gates.push(() => resolve(name));
      });
    const a = limiter.run(task("a"));
    const b = limiter.run(task("b"));
    const c = limiter.run(task("c"));
    await Promise.resolve();
    expect([limiter.active, limiter.queued]).toEqual([2, 1]);
    await expect(limiter.run(task("d"))).rejects.toBeInstanceOf(QueueFull);
    expect(order).toEqual(["start a", "start b"]);
    gates[0]?.();
    expect(await a).toBe("a");
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(["start a", "start b", "start c"]);
    gates[1]?.();
    gates[2]?.();
    expect([await b, await c]).toEqual(["b", "c"]);
    expect([limiter.active, limiter.queued]).toEqual([0, 0]);
  });

  it("frees the slot when a task fails, and estimates the wait from past durations", async () => {
    let now = 0;
    const limiter = new BoundedConcurrency(1, 0, () => now);
    await expect(
      limiter.run(async () => {
        now += 3000;
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(limiter.active).toBe(0);
    let release = () => {};
    const held = limiter.run(() => new Promise<void>((r) => (release = r)));
    const refused = await limiter.run(async () => {}).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(QueueFull);
    expect((refused as QueueFull).retryAfterSeconds).toBe(3);
    release();
    await held;
  });

  it("refuses a nonsensical size", () => {
    expect(() => new BoundedConcurrency(0, 1)).toThrow("concurrency");
    expect(() => new BoundedConcurrency(1, -1)).toThrow("maxQueue");
  });
});

describe("configuration of the login limits", () => {
  it("leaves two threads of libuv's pool and one core free of hashing", () => {
    expect(defaultHashConcurrency({}, 8)).toBe(2);
    expect(defaultHashConcurrency({ UV_THREADPOOL_SIZE: "8" }, 16)).toBe(6);
    expect(defaultHashConcurrency({ UV_THREADPOOL_SIZE: "2" }, 16)).toBe(1);
    expect(defaultHashConcurrency({}, 2)).toBe(1);
    expect(defaultHashConcurrency({}, 1)).toBe(1);
    expect(loadConfig({}).hashing).toEqual({ concurrency: defaultHashConcurrency({}), queue: 16 });
    expect(loadConfig({ GATEWAY_HASH_CONCURRENCY: "3", GATEWAY_HASH_QUEUE: "0" }).hashing).toEqual({
      concurrency: 3,
      queue: 0,
    });
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
