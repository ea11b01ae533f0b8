import type { HeaderBag } from "./headers.js";

/** The value of cookie `name` in a request's Cookie header(s), or undefined. */
export function cookieOf(headers: HeaderBag, name: string): string | undefined {
  const raw = headers.cookie;
  const lines = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  for (const line of lines)
    for (const pair of line.split(";")) {
      const at = pair.indexOf("=");
      if (at < 0) continue;
      if (pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
    }
  return undefined;
}
