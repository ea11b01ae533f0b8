import process from "node:process";

/** The first line of a piped stdin. */
async function firstLineOfStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return (Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "").trimEnd();
}

/**
 * Shows each prompt in turn on a terminal in raw mode (nothing echoed) and resolves with one
 * answer per prompt. One listener reads every chunk, so answers typed ahead or pasted together
 * go to the prompts that follow. Backspace deletes, Ctrl-C cancels.
 */
function readHiddenLines(prompts: readonly string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    const answers: string[] = [];
    let value = "";
    const finish = (error?: Error) => {
      stdin.off("data", onData);
      if (error) reject(error);
      else resolve(answers);
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString("utf8")) {
        if (char === "\r" || char === "\n") {
          process.stderr.write("\n");
          answers.push(value);
          value = "";
          if (answers.length === prompts.length) return finish();
          process.stderr.write(prompts[answers.length] as string);
        } else if (char === "\u0003") {
          process.stderr.write("\n");
          return finish(new Error("Cancelled."));
        } else if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.on("data", onData);
    process.stderr.write(prompts[0] as string);
  });
}

/** `CliIo.readSecret` for the real process: piped stdin, or a hidden prompt asked twice. */
export async function readSecretFromProcess(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) return firstLineOfStdin();
  // Raw mode (no echo) is on before the first prompt shows and stays on until the second
  // answer, so nothing typed ahead is ever echoed.
  process.stdin.setRawMode(true);
  process.stdin.resume();
  try {
    const [first, again] = await readHiddenLines([prompt, "Repeat it: "]);
    if (first !== again) throw new Error("The two entries differ.");
    return first as string;
  } finally {
    process.stdin.setRawMode(false);
    process.stdin.pause();
  }
}
