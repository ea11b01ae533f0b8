/** Dates and numbers in the language on screen. */
export const formatDateTime = (iso: string, language: string): string =>
  new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(iso),
  );

/** Quantities and prices as the gateway sends them (numbers, or decimal strings for exact money). */
export const formatNumber = (value: number | string | null | undefined, language: string) => {
  if (value === null || value === undefined || value === "") return undefined;
  const number = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(number)) return String(value);
  return new Intl.NumberFormat(language, { maximumFractionDigits: 6 }).format(number);
};

/** Digits after the decimal point of an exact decimal string ("720001.35" → 2). */
const decimalsOf = (amount: string | null | undefined): number =>
  amount?.split(".")[1]?.length ?? 0;

/** The decimals to show a set of amounts with, so a column's figures line up. */
export const moneyScale = (amounts: readonly (string | null | undefined)[]): number =>
  Math.max(0, ...amounts.map(decimalsOf));

/**
 * An exact amount (the gateway's decimal string) in the order's currency, in the language on
 * screen: "IDR 720,001.30", "720.001,30 €". Intl formats the string itself, so nothing passes
 * through a float. Whole amounts keep the currency's usual decimals; an amount with a fraction
 * (or shown beside one: `scale`) gets at least two, and every decimal it has, so a price with
 * 4 decimals is never rounded away. Without a currency, a plain number.
 */
export const formatMoney = (
  amount: string | null | undefined,
  currency: string | null | undefined,
  language: string,
  scale = decimalsOf(amount),
): string | undefined => {
  if (amount === null || amount === undefined) return undefined;
  const options: Intl.NumberFormatOptions = currency ? { style: "currency", currency } : {};
  const usual = currency
    ? (new Intl.NumberFormat(language, options).resolvedOptions().minimumFractionDigits ?? 0)
    : 0;
  const shown = Math.max(scale, decimalsOf(amount));
  const minimum = shown > 0 ? Math.max(usual, 2) : usual;
  const format = new Intl.NumberFormat(language, {
    ...options,
    minimumFractionDigits: minimum,
    maximumFractionDigits: Math.max(minimum, shown),
  });
  // ES2023: format() takes a decimal string exactly (typed as number in older libs).
  return format.format(amount as unknown as number);
};

/**
 * An amount in a list, where figures are read at a glance: the currency's own decimals (two
 * for EUR, none for JPY), rounded half away from zero from the exact string; the order's page
 * shows it exactly (formatMoney). Without a currency, at most two decimals.
 */
export const formatListMoney = (
  amount: string | null | undefined,
  currency: string | null | undefined,
  language: string,
): string | undefined => {
  if (amount === null || amount === undefined) return undefined;
  const options: Intl.NumberFormatOptions = currency
    ? { style: "currency", currency }
    : { maximumFractionDigits: 2 };
  return new Intl.NumberFormat(language, options).format(amount as unknown as number);
};

/**
 * An order's name wherever the console names one: numbers count per partner, so one number can
 * belong to several orders; the partner beside it tells them apart ("SO-00000123 (Harbour)").
 */
export const orderName = (order: { order_number: string; partner_name: string }): string =>
  `${order.order_number} (${order.partner_name})`;
