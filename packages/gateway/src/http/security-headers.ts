/**
 * Sent on every response, API and pages alike: no page or answer of the gateway is worth a
 * Referer to another site (a reference page's URL could carry a token pasted into it), and no
 * answer may be sniffed into another type than the one it declares (a problem+json echoing
 * input must never run as a script).
 */
export const SECURITY_HEADERS = {
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
} as const;

/** The same headers as raw HTTP/1.1 header lines, for answers written on the socket. */
export const SECURITY_HEADER_LINES = Object.entries(SECURITY_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join("");
