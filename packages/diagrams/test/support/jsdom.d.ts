// The little of jsdom's API the Mermaid parser check uses (jsdom ships no types of its own).
declare module "jsdom" {
  export class JSDOM {
    constructor(html?: string);
    window: Window & typeof globalThis;
  }
}
