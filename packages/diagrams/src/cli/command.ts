/** What a command may touch besides the file system: its output streams and working directory. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

/** Exit codes shared by every command: 0 success/valid, 1 invalid input, 2 usage error. */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The full text of `orderline-diagrams <name> --help`. */
  help: string;
  run(args: string[], io: CliIo): Promise<number>;
}
