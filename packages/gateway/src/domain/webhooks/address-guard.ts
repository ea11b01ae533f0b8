import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import type { PrivateAddressPolicy } from "../../config/config.js";
import { INPUT_LIMITS } from "../../lib/input-limits.js";

/**
 * Where webhooks may go. `none` (default): public addresses only. `loopback`: also this machine
 * (tests, a receiver beside the gateway). `all`: also private, link-local and unique-local
 * networks (a gateway whose partners' receivers are on an internal network).
 */
export type { PrivateAddressPolicy };

/** ipaddr.js ranges never reachable as a receiver, whatever the policy. */
const NEVER = new Set(["unspecified", "broadcast", "multicast", "reserved"]);

/**
 * The IPv4 address an IPv6 address carries in its last 32 bits when its first 96 bits are those
 * of an IPv4-compatible (::a.b.c.d), IPv4-mapped (::ffff:a.b.c.d) or IPv4-translated
 * (::ffff:0:a.b.c.d) address. URL parsing rewrites `[::127.0.0.1]` as `[::7f00:1]`, which
 * ipaddr.js calls plain unicast IPv6, so the embedded address must be found by its bits.
 */
function embeddedIPv4(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (address.kind() !== "ipv6") return undefined;
  const parts = (address as ipaddr.IPv6).parts;
  const [a, b, c, d, e, f, g = 0, h = 0] = parts;
  const prefix = a === 0 && b === 0 && c === 0;
  const compatible = prefix && d === 0 && e === 0 && f === 0 && (g !== 0 || h > 1);
  const mapped = prefix && d === 0 && e === 0 && f === 0xffff;
  const translated = prefix && d === 0 && e === 0xffff && f === 0;
  if (!compatible && !mapped && !translated) return undefined;
  return new ipaddr.IPv4([g >> 8, g & 0xff, h >> 8, h & 0xff]);
}

/**
 * Why `address` (an IP literal) may not receive webhooks under `policy`, or undefined when it
 * may. An IPv6 address carrying an IPv4 address (compatible, mapped or translated form) is
 * judged as the IPv4 address it carries.
 */
export function addressRefusal(address: string, policy: PrivateAddressPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `'${address}' is not an IP address`;
  const parsed = ipaddr.parse(address);
  const range = (embeddedIPv4(parsed) ?? ipaddr.process(address)).range();
  if (range === "unicast") return undefined;
  if (NEVER.has(range)) return `${address} is a ${range} address`;
  if (range === "loopback" && policy !== "none") return undefined;
  if (policy === "all") return undefined;
  return `${address} is a ${range} address, refused unless GATEWAY_WEBHOOK_ALLOW_PRIVATE allows it`;
}

export const MAX_URL_LENGTH = INPUT_LIMITS.webhookUrl;

/**
 * Why `raw` cannot be a webhook URL, or undefined when it can: http(s), no credentials, no
 * fragment, and a host that is not an address the policy refuses. A host name is checked again
 * at every connection, against what it resolves to then (delivery.ts), since DNS can change.
 */
export function urlRefusal(raw: string, policy: PrivateAddressPolicy): string | undefined {
  if (raw.length > MAX_URL_LENGTH) return `The URL is longer than ${MAX_URL_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "The URL is not an absolute URL.";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return `The URL must use https or http, not ${url.protocol.replace(/:$/, "")}.`;
  if (url.username !== "" || url.password !== "")
    return "The URL must not hold credentials; receivers check the signature instead.";
  if (raw.includes("#")) return "The URL must not have a fragment.";
  // "localhost." is localhost: a trailing dot only makes the name fully qualified.
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "")
    .toLowerCase();
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, policy);
    return refusal && `The URL's host is refused: ${refusal}.`;
  }
  if ((host === "localhost" || host.endsWith(".localhost")) && policy === "none")
    return "The URL's host is refused: localhost is a loopback address, refused unless GATEWAY_WEBHOOK_ALLOW_PRIVATE allows it.";
  return undefined;
}
