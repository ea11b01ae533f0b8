import { configDefaults, defineConfig } from "vitest/config";
import { slowFiles } from "../../scripts/test-tiers.mjs";
import { COMPUTING } from "../../scripts/test-workers.mjs";

// Left out of `npm run test:fast`: processes, browsers, fault injection (scripts/test-tiers.mjs).
const SLOW = [
  "test/architecture-cli.test.ts",
  "test/architecture-html.test.ts",
  "test/lazy-load.test.ts",
  "test/lifecycle-import.test.ts",
  "test/mermaid-cli.test.ts",
  "test/render-cli.test.ts",
  "test/render-preview.test.ts",
  "test/sequence-cli.test.ts",
  "test/validate-cli.test.ts",
  "test/route-check.test.ts",
];

export default defineConfig({
  test: {
    name: "diagrams",
    ...COMPUTING,
    include: ["test/**/*.test.ts"],
    // A worker loads the package and its libraries (ajv's compiled schemas, the fonts, the PNG
    // and PDF renderers) once for all the files it runs, not once per file. The files keep no
    // state between them: the source's module state is caches of pure results, and the one test
    // helper that sets globals (support/mermaid-parse.ts) takes them away again.
    isolate: false,
    exclude: [...configDefaults.exclude, ...slowFiles(SLOW)],
    // PNG, PDF and process tests take a few seconds on a loaded 2-core machine; the default 5 s
    // made them fail for speed, which is not what they test.
    testTimeout: 30_000,
    // One temporary folder per run, removed at its end (scripts/test-tmpdir.mjs); builds dist/
    // when it is older than the source, for the tests that run the CLI process.
    globalSetup: ["../../scripts/test-fresh-build.mjs", "../../scripts/test-tmpdir.mjs"],
  },
});
