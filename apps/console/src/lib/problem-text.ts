import { ApiError } from "./api.js";

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * What to show for a refused admin change: the gateway's detail, which is the admin CLI's
 * message (in English, the same words an operator sees), or that the gateway is out of reach.
 */
export const problemText = (error: unknown, t: Translate): string =>
  error instanceof ApiError && error.code !== "network"
    ? error.message
    : t("common:errors.network");
