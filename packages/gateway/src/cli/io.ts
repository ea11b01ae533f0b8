import type { Env } from "../config.js";

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Env;
  cwd: string;
  /**
   * Reads a secret (a password): the first line of stdin when it is piped, else a prompt that
   * does not echo. Never from a command-line flag, which would land in shell history and `ps`.
   */
  readSecret?: (prompt: string) => Promise<string>;
}

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export class UsageError extends Error {
  override name = "UsageError";
}
