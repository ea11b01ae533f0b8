// Build step (after tsc): compiles schema/workflow.schema.json with ajv into standalone validation code
// (dist/validate/workflow-validator.cjs), so the CLI starts without ajv's compiler.
// The options come from the built dist/validate/schema.js, the same ones the source fallback uses.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020.js");
const standaloneCode = require("ajv/dist/standalone/index.js").default;
const { AJV_OPTIONS, loadSchema } = await import("../dist/validate/schema.js");

const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { source: true } });
const validate = ajv.compile(loadSchema());
const out = new URL("../dist/validate/workflow-validator.cjs", import.meta.url);
mkdirSync(new URL(".", out), { recursive: true });
writeFileSync(out, standaloneCode(ajv, validate));

// npm links the `orderline-diagrams` bin before `prepare` builds it, so on a fresh clone the
// file tsc creates would not be executable; make it so here, at the end of every build.
chmodSync(new URL("../dist/cli/main.js", import.meta.url), 0o755);
