export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** The whole standard input as bytes (for commands that read a body from it). */
  stdin(): Promise<Uint8Array>;
  /** Calls `handler` on Ctrl+C (SIGINT) instead of ending the process; returns how to stop. */
  onInterrupt?(handler: () => void): () => void;
}

/**
 * Exit codes, documented in the package README: scripts branch on them.
 * 1: the gateway refused the request (its problem `code` is printed), or a webhook delivery does
 *    not verify (the reason is printed);
 * 2: usage or local configuration (flags, env, files); 3: the gateway could not be reached.
 */
export const EXIT = { ok: 0, refused: 1, usage: 2, unreachable: 3 } as const;

/** A mistake in the command line or the local configuration: exit 2 with the message. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Prints `value` as JSON with --json, else `text`. */
export function output(io: CliIo, json: boolean, value: unknown, text: string): void {
  io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : text);
}
