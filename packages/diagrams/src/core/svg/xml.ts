/** Prefix of every id in the SVG (title, desc, nodes, edges, defs). */
export const ID = "owd";

/** Formats a number for SVG: at most two decimals, no trailing zeros, never "-0". */
export function num(n: number): string {
  const hundredths = Math.round(n * 100);
  if (hundredths === 0) return "0";
  // Written from the integer: printing a fraction as a double (its shortest round trip) costs
  // several times more, and a drawing prints thousands. Same text as String(hundredths / 100)
  // while hundredths are exact (the fallback beyond, and for NaN and infinities).
  const a = Math.abs(hundredths);
  const cents = a % 100;
  if (cents === 0 || !(a < 1e13)) return String(hundredths / 100);
  const whole = `${hundredths < 0 ? "-" : ""}${(a - cents) / 100}`;
  if (cents % 10 === 0) return `${whole}.${cents / 10}`;
  return `${whole}.${cents < 10 ? "0" : ""}${cents}`;
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

const SPECIAL = /[&<>"']/;

export function esc(text: string): string {
  // Most values (paths, numbers, colours) have nothing to escape: skip the replace and its copy.
  if (!SPECIAL.test(text)) return text;
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** An element with attributes in the given order; undefined attributes are left out. */
export function el(
  name: string,
  attrs: Record<string, string | number | undefined>,
  children?: string,
): string {
  let out = `<${name}`;
  // for…in, not Object.entries: no array per element (a large drawing has thousands).
  for (const k in attrs) {
    const v = attrs[k];
    if (v === undefined) continue;
    out += ` ${k}="${typeof v === "number" ? num(v) : esc(v)}"`;
  }
  return children === undefined ? `${out}/>` : `${out}>${children}</${name}>`;
}
