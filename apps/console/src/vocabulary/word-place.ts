/** Where a word lives: its namespace (area) and key. */
export interface WordPlace {
  namespace: string;
  key: string;
}
