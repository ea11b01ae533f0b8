/**
 * Mermaid's own parser (the `mermaid` package, a devDependency) run in Node: its `parse()`
 * needs a DOM only for sanitising text, so jsdom's window stands in for the browser's.
 */
import { JSDOM } from "jsdom";

let loaded: Promise<{ parse: (text: string) => Promise<unknown> }> | undefined;

function mermaid() {
  loaded ??= (async () => {
    const dom = new JSDOM("<!doctype html><html><body></body></html>");
    const g = globalThis as Record<string, unknown>;
    g.window = dom.window;
    g.document = dom.window.document;
    // Mermaid checks box colours with `new Option().style`.
    g.Option = dom.window.Option;
    const { default: m } = await import("mermaid");
    m.initialize({ startOnLoad: false });
    return m;
  })();
  return loaded;
}

/** Resolves when Mermaid parses `text`; rejects with Mermaid's message when it does not. */
export async function mermaidParse(text: string): Promise<void> {
  await (await mermaid()).parse(text);
}
