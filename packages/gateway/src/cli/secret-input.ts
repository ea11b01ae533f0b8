import process from "node:process";

/** The first line of a piped stdin. */
async function firstLineOfStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return (Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "").trimEnd();
}

/**
 * Reads one line from a terminal already in raw mode (nothing echoed). Backspace deletes,
 * Ctrl-C cancels.
 */
function readHiddenLine(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    let value = "";
    const done = (error?: Error) => {
      stdin.off("data", onData);
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString("utf8")) {
        if (char === "\r" || char === "\n") return done();
        if (char === "\u0003") return done(new Error("Cancelled."));
        if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.on("data", onData);
    process.stderr.write(prompt);
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
    const first = await readHiddenLine(prompt);
    const again = await readHiddenLine("Repeat it: ");
    if (first !== again) throw new Error("The two entries differ.");
    return first;
  } finally {
    process.stdin.setRawMode(false);
    process.stdin.pause();
  }
}
