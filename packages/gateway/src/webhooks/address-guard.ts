import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Where webhooks may go. `none` (default): public addresses only. `loopback`: also this machine
 * (tests, a receiver beside the gateway). `all`: also private, link-local and unique-local
 * networks (a gateway whose partners' receivers are on an internal network).
 */
export type PrivateAddressPolicy = "none" | "loopback" | "all";

/** ipaddr.js ranges never reachable as a receiver, whatever the policy. */
const NEVER = new Set(["unspecified", "broadcast", "multicast", "reserved"]);

/**
 * Why `address` (an IP literal) may not receive webhooks under `policy`, or undefined when it
 * may. IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function addressRefusal(address: string, policy: PrivateAddressPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `'${address}' is not an IP address`;
  const range = ipaddr.process(address).range();
  if (range === "unicast") return undefined;
  if (NEVER.has(range)) return `${address} is a ${range} address`;
  if (range === "loopback" && policy !== "none") return undefined;
  if (policy === "all") return undefined;
  return `${address} is a ${range} address, refused unless GATEWAY_WEBHOOK_ALLOW_PRIVATE allows it`;
}

export const MAX_URL_LENGTH = 2048;

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
