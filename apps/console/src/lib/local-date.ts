/**
 * Calendar dates typed in the console's language: the order of day, month and year and the
 * separator come from Intl for the language on screen (not the browser's, which a native date
 * input follows), and the value the form sends stays ISO `YYYY-MM-DD`.
 */
type Part = "day" | "month" | "year";

interface DateShape {
  order: Part[];
  separator: string;
}

// Any day whose day and month differ tells the parts apart; UTC so no time zone shifts it.
const SAMPLE = new Date(Date.UTC(2026, 10, 26));

export const dateShape = (language: string): DateShape => {
  const parts = new Intl.DateTimeFormat(language, {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    timeZone: "UTC",
  }).formatToParts(SAMPLE);
  const order = parts
    .map((p) => p.type)
    .filter((type): type is Part => type === "day" || type === "month" || type === "year");
  const separator = parts.find((p) => p.type === "literal")?.value.trim() || "/";
  return { order: order.length === 3 ? order : ["year", "month", "day"], separator };
};

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

const isoOf = (year: number, month: number, day: number): string | undefined => {
  const date = new Date(Date.UTC(year, month - 1, day));
  // 31.02. rolls over to March: not a day of the calendar.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1) return undefined;
  if (year < 1000 || year > 9999) return undefined;
  return date.toISOString().slice(0, 10);
};

/** `2026-11-26` → `26.11.2026` (de), `11/26/2026` (en), `26/11/2026` (id). */
export const formatLocalDate = (iso: string, language: string): string => {
  const match = ISO.exec(iso);
  if (!match) return iso;
  const { order, separator } = dateShape(language);
  const values = { year: match[1], month: match[2], day: match[3] };
  return order.map((part) => values[part]).join(separator);
};

/**
 * What a person typed as an ISO date: "" for nothing, undefined when it is not a day of the
 * calendar. Any non-digit separates; an ISO date is taken as it is in every language.
 */
export const parseLocalDate = (text: string, language: string): string | undefined => {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  const iso = ISO.exec(trimmed);
  if (iso) return isoOf(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const numbers = trimmed.split(/\D+/).filter(Boolean);
  if (numbers.length !== 3) return undefined;
  const { order } = dateShape(language);
  const value = (part: Part) => Number(numbers[order.indexOf(part)]);
  const yearText = numbers[order.indexOf("year")] ?? "";
  if (yearText.length !== 4) return undefined;
  return isoOf(value("year"), value("month"), value("day"));
};
