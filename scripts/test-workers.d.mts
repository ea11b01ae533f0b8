/** Types of test-workers.mjs. */
interface Workers {
  maxWorkers: number;
  sequence: { groupOrder: number };
}
export declare const WAITING: Workers;
export declare const COMPUTING: Workers;
