import { isIPv4, isIPv6 } from "node:net";

/**
 * The unit login limits count per: an IPv4 address, or the /64 network of an IPv6 address (one
 * subscriber usually holds a whole /64, so counting single IPv6 addresses would give an attacker
 * 2^64 fresh budgets). An IPv4-mapped IPv6 address counts as its IPv4 address. `ip` is Fastify's
 * `request.ip`, which already honours GATEWAY_TRUST_PROXY.
 */
export function addressBucket(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (isIPv4(ip)) return ip;
  const bare = ip.split("%")[0] ?? ip;
  if (!isIPv6(bare)) return ip;
  return `${expandIPv6(bare).slice(0, 4).join(":")}::/64`;
}

/** The eight hextets of an IPv6 address, `::` expanded (an embedded IPv4 tail counts as two). */
function expandIPv6(ip: string): string[] {
  const toHextets = (part: string): string[] => {
    if (part === "") return [];
    return part.split(":").flatMap((group) => {
      if (!group.includes(".")) return [group.toLowerCase().padStart(4, "0")];
      const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
      return [
        ((a << 8) | b).toString(16).padStart(4, "0"),
        ((c << 8) | d).toString(16).padStart(4, "0"),
      ];
    });
  };
  const [head = "", tail] = ip.split("::");
  const left = toHextets(head);
  if (tail === undefined) return left;
  const right = toHextets(tail);
  return [...left, ...Array<string>(8 - left.length - right.length).fill("0000"), ...right];
}
