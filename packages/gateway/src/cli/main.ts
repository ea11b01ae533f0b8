#!/usr/bin/env node
import process from "node:process";
import { tracingConfigured } from "../observability/otel-config.js";

// The SDK (and its module hooks) only when OTEL_* asks for traces, and before the modules it
// instruments load: everything else is imported after this.
if (process.argv[2] === "serve" && tracingConfigured(process.env)) {
  const { startTracing } = await import("../observability/otel-sdk.js");
  await startTracing();
}
const { run } = await import("./run.js");
const { readSecretFromProcess } = await import("./secret-input.js");

process.exitCode = await run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  readSecret: readSecretFromProcess,
});
