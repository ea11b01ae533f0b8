import { countUnhandledRejection } from "../observability/metrics.js";

interface GuardLog {
  error(object: object, message: string): void;
  fatal(object: object, message: string): void;
}

/**
 * What `serve` does with an error nobody handled (docs/decisions.md, "An unhandled rejection
 * is logged, an uncaught exception ends the process"):
 *
 * - a rejected promise nobody awaited is logged and counted
 *   (`orderline_unhandled_rejections_total`), and the process keeps serving: the failure has
 *   already unwound to an `await` boundary, so the process state is what it was before the
 *   failed work, and one dropped stream or lost span must not end every tenant's requests;
 * - an exception thrown out of a callback is logged and ends the process (exit 1): it left a
 *   synchronous step half done, state may be inconsistent, and the orchestrator restarts it.
 *
 * Returns how to remove both handlers.
 */
export function guardProcess(log: GuardLog, exit: (code: number) => void): () => void {
  const rejected = (reason: unknown) => {
    countUnhandledRejection();
    log.error(
      { event: "unhandled_rejection", err: reason },
      "a promise was rejected and nothing handled it; the gateway keeps serving",
    );
  };
  const thrown = (error: Error) => {
    log.fatal(
      { event: "uncaught_exception", err: error },
      "an exception was thrown and nothing caught it; the gateway exits",
    );
    exit(1);
  };
  process.on("unhandledRejection", rejected);
  process.on("uncaughtException", thrown);
  return () => {
    process.off("unhandledRejection", rejected);
    process.off("uncaughtException", thrown);
  };
}
