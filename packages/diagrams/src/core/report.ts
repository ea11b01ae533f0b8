/**
 * A named report a diagram type offers (`validate --report <name>`): facts read from a valid
 * description that a reviewer starts from, e.g. the data flows crossing a trust boundary.
 * The CLI prints them as text or, with `--format json`, as the rows themselves.
 */
export interface DiagramReport<D> {
  /** One line: what the report lists (in help and in the error naming the reports offered). */
  summary: string;
  /** Pure: the findings, in reading order, as JSON-ready objects. */
  rows(d: D): Record<string, unknown>[];
  /** The rows as text lines (the first says what is listed and how many). */
  text(rows: Record<string, unknown>[]): string[];
}
