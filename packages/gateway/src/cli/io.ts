import type { Env } from "../config/config.js";

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

/** 1: refused or failed; 2: bad arguments or configuration; 3: no usable store there. */
export const EXIT = { ok: 0, failure: 1, usage: 2, store: 3 } as const;

export class UsageError extends Error {
  override name = "UsageError";
  /** The command's help, shown after the message (not in JSON errors). */
  constructor(
    message: string,
    readonly help?: string,
  ) {
    super(message);
  }
}
