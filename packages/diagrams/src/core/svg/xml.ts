/** Prefix of every id in the SVG (title, desc, nodes, edges, defs). */
export const ID = "owd";

/** Formats a number for SVG: at most two decimals, no trailing zeros, never "-0". */
export function num(n: number): string {
  const r = Math.round(n * 100) / 100;
  if (r === 0) return "0";
  return String(r);
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** An element with attributes in the given order; undefined attributes are left out. */
export function el(
  name: string,
  attrs: Record<string, string | number | undefined>,
  children?: string,
): string {
  let out = `<${name}`;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined) continue;
    out += ` ${k}="${typeof v === "number" ? num(v) : esc(v)}"`;
  }
  return children === undefined ? `${out}/>` : `${out}>${children}</${name}>`;
}
