/**
 * Mermaid's own parser (the `mermaid` package, a devDependency) run in Node: its `parse()`
 * needs a DOM only for sanitising text, so jsdom's window stands in for the browser's.
 */
import { JSDOM } from "jsdom";

const DOM_GLOBALS = ["window", "document", "Option"] as const;
let dom: JSDOM | undefined;
let loaded: Promise<{ parse: (text: string) => Promise<unknown> }> | undefined;

/**
 * Puts jsdom's window in the globals Mermaid reads, and returns what takes them away again: the
 * files of a worker share its globals (vitest.config.ts, `isolate: false`), and a `window` left
 * behind would tell later files' libraries they run in a browser.
 */
function withDom(): () => void {
  dom ??= new JSDOM("<!doctype html><html><body></body></html>");
  const g = globalThis as Record<string, unknown>;
  const before = DOM_GLOBALS.map(
    (name) => [name, Object.getOwnPropertyDescriptor(g, name)] as const,
  );
  g.window = dom.window;
  g.document = dom.window.document;
  // Mermaid checks box colours with `new Option().style`.
  g.Option = dom.window.Option;
  return () => {
    for (const [name, descriptor] of before) {
      if (descriptor) Object.defineProperty(g, name, descriptor);
      else delete g[name];
    }
  };
}

function mermaid() {
  loaded ??= (async () => {
    const { default: m } = await import("mermaid");
    m.initialize({ startOnLoad: false });
    return m;
  })();
  return loaded;
}

/** Resolves when Mermaid parses `text`; rejects with Mermaid's message when it does not. */
export async function mermaidParse(text: string): Promise<void> {
  const restore = withDom();
  try {
    await (await mermaid()).parse(text);
  } finally {
    restore();
  }
}
