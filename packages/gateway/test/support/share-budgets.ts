import { loadConfig } from "../../src/config/config.js";
import type { ShareBudgets } from "../../src/config/shares.js";

/**
 * The share budgets a gateway gets from these settings (the environment variables of
 * docs/deploy.md, "Shares"), the others at their defaults: what a test passes as
 * `config.shares` to run with an operator's settings.
 */
export function shareBudgets(settings: Record<string, string>): ShareBudgets {
  return loadConfig({ GATEWAY_MASTER_KEY: undefined, ...settings }, {}).shares;
}
