/**
 * Builds a check for strings of one format: it returns the value when it matches and otherwise
 * throws a TypeError starting with the caller's label, so the message names the call at fault.
 */
export const stringCheck =
  (format: RegExp, problem: (shown: string) => string) =>
  (value: unknown, label: string): string => {
    if (typeof value !== "string" || !format.test(value)) {
      throw new TypeError(`${label}: ${problem(JSON.stringify(value))}`);
    }
    return value;
  };
