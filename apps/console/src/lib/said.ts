/** A message kept as its key and values, so it follows a language change while shown. */
export interface Said {
  key: string;
  values: Record<string, unknown>;
}
