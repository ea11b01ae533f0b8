/** A JSON Schema as the validators read it: any object. */
export type JsonSchema = { [key: string]: unknown };
