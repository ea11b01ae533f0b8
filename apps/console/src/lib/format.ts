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
