import fastJsonStringify from "fast-json-stringify";
import type { FastifyInstance } from "fastify";

/**
 * Request validators and response serializers compiled once per process for every app it
 * builds, keyed by the schema's content. A process that serves builds one app, so nothing
 * changes there; the tests build hundreds (a gateway per test), and compiling the same route
 * schemas again for each was about two thirds of a gateway's start-up CPU.
 */
const compiled = new Map<string, unknown>();

export function compiledOnce<T>(kind: string, schema: unknown, compile: () => T): T {
  const key = `${kind} ${JSON.stringify(schema)}`;
  if (compiled.has(key)) return compiled.get(key) as T;
  const fn = compile();
  compiled.set(key, fn);
  return fn;
}

/** Response serializers as Fastify compiles them by default (no shared schemas), but once. */
export function installSerializers(app: FastifyInstance): void {
  app.setSerializerCompiler(({ schema }) =>
    compiledOnce("response", schema, () => fastJsonStringify(schema as object)),
  );
}
