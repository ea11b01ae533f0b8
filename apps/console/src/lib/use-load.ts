import { useCallback, useEffect, useState } from "react";
import { ApiError } from "./api.js";

export type Load<T> =
  /** `previous`: what the last run answered, to keep on screen while running again. */
  | { state: "loading"; previous?: T }
  | { state: "done"; value: T }
  | { state: "failed"; error: ApiError };

/** Runs a request when its inputs change; `retry` runs it again. Stale answers are dropped. */
export const useLoad = <T>(run: () => Promise<T>, deps: readonly unknown[]) => {
  const [load, setLoad] = useState<Load<T>>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names the inputs.
  useEffect(() => {
    let current = true;
    setLoad((last) => ({
      state: "loading",
      previous:
        last.state === "done" ? last.value : last.state === "loading" ? last.previous : undefined,
    }));
    run().then(
      (value) => current && setLoad({ state: "done", value }),
      (error: unknown) =>
        current &&
        setLoad({
          state: "failed",
          error: error instanceof ApiError ? error : new ApiError(0, "client", String(error)),
        }),
    );
    return () => {
      current = false;
    };
  }, [...deps, attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return [load, retry] as const;
};

/** The latest answer: the current one, or the previous one while running again. */
export const latest = <T>(load: Load<T>): T | undefined =>
  load.state === "done" ? load.value : load.state === "loading" ? load.previous : undefined;
