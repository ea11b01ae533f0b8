/** { namespace: { key: [placeholder names] } } from apps/console/locales, sorted. */
export function collectPlaceholders(): Record<string, Record<string, string[]>>;
/** The text of src/domain/vocabulary/standard-placeholders.ts. */
export function standardPlaceholders(): string;
