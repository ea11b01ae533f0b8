import { stringCheck } from "./assert.js";

/** Namespaces are written before ":" in keys, so they may not contain ":" or "." themselves. */
export const assertNamespace = stringCheck(
  /^[A-Za-z0-9_-]+$/,
  (ns) => `namespace ${ns} must be letters, digits, "-" or "_"`,
);
