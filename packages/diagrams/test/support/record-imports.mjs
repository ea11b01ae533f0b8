// Loaded with `node --import`: records every module the process loads, in the file named by
// RECORD_IMPORTS, one URL per line: ES modules (imports and import()) as they resolve, and
// CommonJS modules (require, createRequire) from the require cache when the process exits.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";

const record = process.env.RECORD_IMPORTS;

register(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(record)}, result.url + "\\n");
  return result;
}
`)}`,
);

process.on("exit", () => {
  const cache = createRequire(import.meta.url).cache;
  const urls = Object.keys(cache).map((path) => pathToFileURL(path).href);
  appendFileSync(record, urls.map((url) => `${url}\n`).join(""));
});
