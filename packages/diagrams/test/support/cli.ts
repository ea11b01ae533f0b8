import { main } from "../../src/cli/dispatch.js";

/** One CLI invocation in this process, from `cwd`: its exit code and what it printed. */
export async function runCli(
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd,
  });
  return { code, stdout, stderr };
}
