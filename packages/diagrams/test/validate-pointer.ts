import { pointerTokens } from "../src/core/validate/pointer.js";

/** Test helpers: read and change a JSON value by JSON Pointer. */

type Container = Record<string, unknown> | unknown[];

function parent(root: unknown, path: string): [Container, string] {
  const tokens = pointerTokens(path);
  const last = tokens.pop();
  if (last === undefined) throw new Error("cannot change the root");
  let current = root;
  for (const token of tokens) {
    current = (current as Record<string, unknown>)[token];
    if (typeof current !== "object" || current === null) throw new Error(`no container at ${path}`);
  }
  return [current as Container, last];
}

export function get(root: unknown, path: string): unknown {
  if (path === "") return root;
  const [container, key] = parent(root, path);
  return (container as Record<string, unknown>)[key];
}

export function set(root: unknown, path: string, value: unknown): void {
  const [container, key] = parent(root, path);
  if (Array.isArray(container) && key === "-") container.push(value);
  else (container as Record<string, unknown>)[key] = value;
}

export function del(root: unknown, path: string): void {
  const [container, key] = parent(root, path);
  if (Array.isArray(container)) container.splice(Number(key), 1);
  else delete container[key];
}
