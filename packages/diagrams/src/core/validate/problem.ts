/** One thing wrong with a description, located precisely enough to jump to it in an editor. */
export interface Problem {
  /** The file the description came from, when it came from one. */
  file?: string;
  /** 1-based line and column of the offending value (or of the key, for an unknown property). */
  line: number;
  column: number;
  /** JSON Pointer to the offending value, e.g. "/nodes/3/lane"; "" for the whole document. */
  path: string;
  /** Stable identifier of the rule broken, e.g. "schema/additionalProperties", "ref/lane". */
  rule: string;
  /** The rule broken, in plain words. */
  message: string;
  /** What would probably fix it, when something can be suggested ("did you mean \"label\"?"). */
  suggestion?: string;
  /**
   * "warning": the description is valid but the drawing cannot honour all of it (a route, a
   * side, text cut short). Absent: an error that makes the description invalid.
   */
  severity?: "warning";
}
