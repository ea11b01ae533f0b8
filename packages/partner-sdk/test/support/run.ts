/** Runs a program of another language's SDK to its end, with its output for assertions. */
import { execFile } from "node:child_process";
import { tmpdir } from "node:os";

export interface RunResult {
  code: number;
  out: string;
  stdout: string;
}

export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; input?: string },
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = execFile(
      command,
      args,
      {
        cwd: options.cwd,
        timeout: 280_000,
        maxBuffer: 16 * 1024 * 1024,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), ...options.env },
      },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : -1,
          out: `${stdout}${stderr}`,
          stdout,
        }),
    );
    child.stdin?.end(options.input ?? "");
  });
}
