// A <text> element of the SVGs the types render: its text sits in <tspan>s, never in CDATA.
const TEXT_ELEMENT = /<text\b[^>]*>[\s\S]*?<\/text>/g;
const TEXT_NODE = />([^<]+)</g;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

export function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const hex = name[1] === "x" || name[1] === "X";
      return String.fromCodePoint(Number.parseInt(name.slice(hex ? 2 : 1), hex ? 16 : 10));
    }
    return ENTITIES[name] ?? whole;
  });
}

/** The text an SVG draws: the text nodes of its <text> elements, entities decoded. */
export function drawnTexts(svg: string): string[] {
  const texts: string[] = [];
  for (const element of svg.match(TEXT_ELEMENT) ?? []) {
    for (const node of element.matchAll(TEXT_NODE)) texts.push(decodeXml(node[1] as string));
  }
  return texts;
}
