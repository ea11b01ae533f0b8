/**
 * Prices are decimals with at most 4 decimal places below 100 billion: at most 15 significant
 * digits, so a JSON number the partner sends parses to the one double that prints back as the
 * same decimal, and the stores keep it as decimal text (SQLite) or NUMERIC (PostgreSQL).
 */
export const MAX_DECIMAL_PLACES = 4;
export const MAX_PRICE = "99999999999.9999";

const DECIMAL = /^(0|[1-9][0-9]{0,10})(?:\.([0-9]+))?$/;

/** Why `value` is not a price the API keeps exactly, or undefined when it is one. */
export function priceFault(value: number | string): string | undefined {
  if (typeof value === "number" && !Number.isFinite(value)) return "must be a finite number";
  // A number prints as its shortest exact decimal; exponent forms are out of range anyway.
  const text = typeof value === "number" ? String(value) : value;
  const match = DECIMAL.exec(text);
  if (match === null) {
    return typeof value === "string" && !/^-?[0-9]+(\.[0-9]+)?$/.test(value)
      ? "must be a decimal such as 19.99 (digits, one optional '.', no exponent)"
      : `must be between 0 and ${MAX_PRICE} with at most ${MAX_DECIMAL_PLACES} decimal places`;
  }
  if ((match[2]?.length ?? 0) > MAX_DECIMAL_PLACES) {
    return `has more than ${MAX_DECIMAL_PLACES} decimal places`;
  }
  return undefined;
}

/** The price as the JSON number the API stores and returns (call after priceFault passed). */
export const priceOf = (value: number | string): number =>
  typeof value === "number" ? value : Number(value);

/** A decimal as an integer of units and how many of its digits are decimals: 12.5 is 125n, 1. */
interface Decimal {
  units: bigint;
  scale: number;
}

/**
 * A JSON number or decimal string as an exact decimal. A number is read through its shortest
 * round-trip text (what the API stored and returns), exponent forms (1e-7, 1e21) included, so
 * no binary floating-point error enters a sum or product.
 */
export function decimalOf(value: number | string): Decimal {
  const text = typeof value === "number" ? String(value) : value.trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text);
  if (match === null) throw new Error(`not a decimal: ${text}`);
  const [, sign = "", whole = "0", fraction = "", exponent = "0"] = match;
  let units = BigInt(`${sign}${whole}${fraction}`);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units, scale };
}

const rescaled = (d: Decimal, scale: number): bigint => d.units * 10n ** BigInt(scale - d.scale);

/** A decimal as plain text without trailing fraction zeros: 720001, 0.5, 1234.0005. */
function textOf({ units, scale }: Decimal): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** quantity × unit price, exactly, as decimal text ("720001", "12.3456"). */
export function lineTotal(quantity: number | string, unitPrice: number | string): string {
  const q = decimalOf(quantity);
  const p = decimalOf(unitPrice);
  return textOf({ units: q.units * p.units, scale: q.scale + p.scale });
}

/** The exact sum of decimal texts (or numbers), as decimal text; "0" for none. */
export function sumOf(values: readonly (number | string)[]): string {
  const decimals = values.map(decimalOf);
  const scale = Math.max(0, ...decimals.map((d) => d.scale));
  const units = decimals.reduce((sum, d) => sum + rescaled(d, scale), 0n);
  return textOf({ units, scale });
}
