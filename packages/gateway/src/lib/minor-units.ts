import { decimalOf } from "./money.js";

/**
 * Amounts in a currency's minor units (cents, fils…): how the daily order tallies (migration
 * 026) keep money as integers. Each currency's decimals are fixed here, not read from the
 * runtime's Intl data, so the figures stored never depend on which ICU a Node build carries;
 * migration 026's backfill repeats these two lists in SQL. ISO 4217's list one (2025), with the
 * digits CLDR gives in use (IDR, PKR, IQD… are priced in whole units).
 */
const ZERO_DECIMALS = new Set([
  ...["AFN", "ALL", "BIF", "CLP", "COP", "DJF", "GNF", "HUF", "IDR", "IQD", "IRR", "ISK", "JPY"],
  ...["KMF", "KPW", "KRW", "LAK", "LBP", "MGA", "MMK", "PKR", "PYG", "RWF", "SOS", "SYP", "UGX"],
  ...["VND", "VUV", "XAF", "XOF", "XPF", "YER"],
]);
const THREE_DECIMALS = new Set(["BHD", "JOD", "KWD", "LYD", "OMR", "TND"]);

/** How many decimals `currency` is counted in; orders without a currency count in hundredths. */
export const currencyDecimals = (currency: string | null | undefined): number =>
  currency && ZERO_DECIMALS.has(currency) ? 0 : currency && THREE_DECIMALS.has(currency) ? 3 : 2;

/**
 * The order's total (Σ quantity × unit price, exactly) in the currency's minor units, rounded
 * half away from zero once per order; 0n when a line has no price (the order still counts, its
 * amount is unknown). Exact where the API keeps prices (4 decimals) and quantities.
 */
export function orderAmountMinor(
  lines: readonly { quantity: number | string; unit_price?: number | string | null }[],
  currency: string | null | undefined,
): bigint {
  const target = currencyDecimals(currency);
  let total = 0n;
  let scale = 0;
  for (const line of lines) {
    if (line.unit_price === undefined || line.unit_price === null) return 0n;
    const q = decimalOf(line.quantity);
    const p = decimalOf(line.unit_price);
    const units = q.units * p.units;
    const s = q.scale + p.scale;
    if (s > scale) {
      total *= 10n ** BigInt(s - scale);
      scale = s;
    }
    total += units * 10n ** BigInt(scale - s);
  }
  if (scale <= target) return total * 10n ** BigInt(target - scale);
  const divisor = 10n ** BigInt(scale - target);
  const half = divisor / 2n;
  return total >= 0n ? (total + half) / divisor : -((-total + half) / divisor);
}

/** Minor units as decimal text with the currency's decimals: 123456n, 2 → "1234.56". */
export function minorToText(minor: bigint, decimals: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return `${negative ? "-" : ""}${whole}${decimals > 0 ? `.${fraction}` : ""}`;
}
