#!/usr/bin/env node
// The executable: wires the dispatcher to the real process. Everything else lives in
// dispatch.ts, which tests import without touching process state.
import process from "node:process";
import { main } from "./dispatch.js";

process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
});
