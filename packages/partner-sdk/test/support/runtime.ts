/** Whether a language runtime an example needs is installed. */
import { execFileSync } from "node:child_process";

function available(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * A runtime an example needs. When CI needs it (.ci/run installs the JDK), its absence fails
 * the run; elsewhere the example is skipped with a loud message.
 */
export function runtime(
  command: string,
  args: string[],
  install: string,
  ciNeedsIt: boolean,
): boolean {
  if (available(command, args)) return true;
  const message = `${command} is not installed (${install}).`;
  if (ciNeedsIt && process.env.CI) throw new Error(`${message} CI runs this example.`);
  console.warn(`\n!!! ${message}\n!!! SKIPPING the ${command} example.\n`);
  return false;
}
