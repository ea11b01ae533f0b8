/**
 * The SDK's types are a written-out copy of the gateway's contract (the package is published
 * without the gateway): test/support/contract-types.ts states they are the same, field by field,
 * and this compiles it with TypeScript, so a drift on either side fails here.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const CHECK = fileURLToPath(new URL("./support/contract-types.ts", import.meta.url));
const ROOT = dirname(dirname(CHECK));

/** The compiler's errors for `file`, with `overrides` replacing files' text in memory. */
function errorsOf(file: string, overrides: Record<string, string> = {}): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "..", "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (config === undefined) throw new Error("tsconfig.json did not parse");
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => overrides[name] ?? readFile(name);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name in overrides || fileExists(name);
  const program = ts.createProgram([file], { ...config.options, noEmit: true }, host);
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`${file} was not compiled`);
  return [
    ...program.getSyntacticDiagnostics(source),
    ...program.getSemanticDiagnostics(source),
  ].map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("the SDK's types and the gateway's contract", () => {
  it("are the same, field by field", () => {
    expect(errorsOf(CHECK)).toEqual([]);
  });

  it("a difference fails the check (the old hand copy's unit_price and currency)", () => {
    const drifted = join(dirname(CHECK), "drifted-types.ts");
    const text = [
      'import type { OrderData } from "../../../gateway/src/contract/index.js";',
      'import type { Same } from "./contract-types.js";',
      'type OldProduct = Omit<OrderData["products"][number], "unit_price"> & { unit_price: number | string | null };',
      "type Old = Omit<OrderData, 'products' | 'currency' | 'history'> & { products: OldProduct[]; currency?: string | null };",
      "export const check = true satisfies Same<Old, Omit<OrderData, 'history'>>;",
    ].join("\n");
    expect(errorsOf(drifted, { [drifted]: text }).join("\n")).toMatch(
      /Type 'true' does not satisfy the expected type 'false'/,
    );
  });
});
