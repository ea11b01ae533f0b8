import { useCallback, useEffect, useState } from "react";
import { ApiError } from "./api.js";

export type Load<T> =
  | { state: "loading" }
  | { state: "done"; value: T }
  | { state: "failed"; error: ApiError };

/** Runs a request when its inputs change; `retry` runs it again. Stale answers are dropped. */
export const useLoad = <T>(run: () => Promise<T>, deps: readonly unknown[]) => {
  const [load, setLoad] = useState<Load<T>>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names the inputs.
  useEffect(() => {
    let current = true;
    setLoad({ state: "loading" });
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
