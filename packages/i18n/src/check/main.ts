#!/usr/bin/env node
import { runCheck } from "./run.js";

const result = await runCheck(process.argv.slice(2));
const write = result.exitCode === 0 ? console.log : console.error;
for (const line of result.output) write(line);
process.exitCode = result.exitCode;
