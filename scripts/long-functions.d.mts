/** Types of long-functions.mjs. */
export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}
export declare function longFunctions(paths: readonly string[], over?: number): LongFunction[];
