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
