// Build step (after tsc): compiles each registered type's JSON Schema (schema/<type>.schema.json)
// with ajv into standalone validation code (dist/types/<type>/validator.cjs, beside the type's
// schema module, which loads it), so the CLI starts without ajv's compiler.
// The options come from the built core, the same ones the source fallback uses.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020.js");
const standaloneCode = require("ajv/dist/standalone/index.js").default;
const { AJV_OPTIONS } = await import("../dist/core/validate/schema.js");
const { TYPE_NAMES, loadType } = await import("../dist/types/index.js");

for (const name of TYPE_NAMES) {
  const type = await loadType(name);
  const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { source: true } });
  const validate = ajv.compile(type.schema.json());
  const out = new URL(`../dist/types/${name}/validator.cjs`, import.meta.url);
  mkdirSync(new URL(".", out), { recursive: true });
  writeFileSync(out, standaloneCode(ajv, validate));
}

// npm links the `orderline-diagrams` bin before `prepare` builds it, so on a fresh clone the
// file tsc creates would not be executable; make it so here, at the end of every build.
chmodSync(new URL("../dist/cli/main.js", import.meta.url), 0o755);
