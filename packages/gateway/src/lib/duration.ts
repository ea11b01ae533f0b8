const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `90s`, `30m`, `12h`, `7d` (or `0`) in milliseconds; undefined for anything else. */
export function parseDuration(raw: string): number | undefined {
  const match = /^(\d{1,6})(s|m|h|d)?$/.exec(raw.trim());
  if (!match) return undefined;
  const [, amount = "", unit] = match;
  if (unit === undefined) return amount.replace(/^0+/, "") === "" ? 0 : undefined;
  return Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
}
