// A sign-in flood from many source addresses, as a process of its own (the lockout bench and
// test/login-limits.test.ts run it at nice 10, so the attacker's CPU is not charged to the
// gateway). Argument: JSON { urls, seconds, addresses, prefix, attempts: [{ path, body }] }.
// Address n (0-based) is `${prefix}.${n + 1}` (up to 250 per prefix: the next ones continue in
// the following /24); each address sends the attempts in turn, one at a time, "{n}" and "{i}"
// in body strings replaced by the address number and the attempt count. Prints
// { "<attempt index> <status>": count } as JSON, also when stopped early with SIGTERM.
// Started with an IPC channel, it also sends "known" once every address is known to the gateway
// as flooding: refused for its password (401) once, or answered KNOWN_AFTER times in all (the
// gateway's sign-in queue counts an address it keeps refusing for load as a flood's).
import { Agent, request } from "node:http";

const { urls, seconds, addresses, prefix, attempts } = JSON.parse(process.argv[2]);
const [a, b, c] = prefix.split(".").map(Number);
const until = performance.now() + seconds * 1000;
const statuses = {};
const KNOWN_AFTER = 3;
const answered = new Array(addresses).fill(0);
let unknown = addresses;

function count(n, status) {
  const before = answered[n];
  answered[n] = status === 401 ? Number.POSITIVE_INFINITY : before + 1;
  if (before < KNOWN_AFTER && answered[n] >= KNOWN_AFTER && --unknown === 0)
    process.send?.("known");
}

const fill = (value, n, i) =>
  typeof value === "string"
    ? value.replaceAll("{n}", String(n)).replaceAll("{i}", String(i))
    : value;

function post(url, path, body, agent) {
  const payload = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = request(
      new URL(path, url),
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode));
      },
    );
    req.on("error", () => resolve(0));
    req.end(payload);
  });
}

// Stopped early (SIGTERM): what was answered so far.
process.once("SIGTERM", () => {
  process.stdout.write(JSON.stringify(statuses), () => process.exit(0));
});

await Promise.all(
  Array.from({ length: addresses }, async (_, n) => {
    const localAddress = `${a}.${b}.${c + Math.floor(n / 250)}.${1 + (n % 250)}`;
    const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress });
    for (let i = 0; performance.now() < until; i++) {
      const which = i % attempts.length;
      const { path, body } = attempts[which];
      const filled = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, fill(v, n, i)]));
      const status = await post(urls[(n + i) % urls.length], path, filled, agent);
      statuses[`${which} ${status}`] = (statuses[`${which} ${status}`] ?? 0) + 1;
      count(n, status);
    }
    agent.destroy();
  }),
);
process.stdout.write(JSON.stringify(statuses), () => process.exit(0));
