import { describe, expect, it } from "vitest";
import { RULES } from "../src/types/workflow/catalog.js";
import type { WorkflowDiagram } from "../src/types/workflow/model.js";
import { validateSource } from "../src/validate/index.js";
import { baseDiagram, check, rulesAndPaths } from "./validate-base.js";
import { del, set } from "./validate-pointer.js";

type Mutation = (d: WorkflowDiagram) => void;

interface Case {
  name: string;
  /** The problems the broken description must produce, exactly (rule and path). */
  expect: { rule: string; path: string }[];
  fail: Mutation;
  /** A change that approaches the same rule but keeps the description valid. */
  pass?: Mutation;
}

const one = (rule: string, path: string) => [{ rule, path }];
const v1 = (d: WorkflowDiagram) => {
  set(d, "/schema_version", 1);
  del(d, "/meta/views");
  del(d, "/cards");
};

// The rules of the format document's tables and of the issue, each broken by one mutation of
// the valid base. Where a pass mutation is given it sits at the boundary the rule draws.
const CASES: Case[] = [
  // Top level
  {
    name: "schema_version is required",
    expect: one("schema/required", "/schema_version"),
    fail: (d) => del(d, "/schema_version"),
  },
  {
    name: "schema_version is 1 or 2",
    expect: one("schema/enum", "/schema_version"),
    fail: (d) => set(d, "/schema_version", 3),
    pass: v1,
  },
  {
    name: "schema_version is an integer, not a string",
    expect: one("schema/enum", "/schema_version"),
    fail: (d) => set(d, "/schema_version", "2"),
  },
  {
    name: "diagram_type is workflow",
    expect: one("schema/const", "/diagram_type"),
    fail: (d) => set(d, "/diagram_type", "flowchart"),
  },
  {
    name: "diagram_type is required",
    expect: one("schema/required", "/diagram_type"),
    fail: (d) => del(d, "/diagram_type"),
  },
  {
    name: "meta is required",
    expect: one("schema/required", "/meta"),
    fail: (d) => del(d, "/meta"),
  },
  {
    name: "meta is an object",
    expect: one("schema/type", "/meta"),
    fail: (d) => set(d, "/meta", "Base"),
  },
  // Without lanes, node lanes cannot resolve; that is not reported once per node.
  {
    name: "lanes are required",
    expect: one("schema/required", "/lanes"),
    fail: (d) => del(d, "/lanes"),
  },
  {
    name: "lanes have at least 1 item",
    expect: one("schema/minItems", "/lanes"),
    fail: (d) => set(d, "/lanes", []),
  },
  {
    name: "nodes are required",
    expect: one("schema/required", "/nodes"),
    fail: (d) => {
      del(d, "/nodes");
      set(d, "/edges", []);
      del(d, "/mainPath");
      del(d, "/semanticChecks");
      del(d, "/cards");
      del(d, "/meta/views");
    },
  },
  {
    name: "nodes have at least 1 item",
    expect: one("schema/minItems", "/nodes"),
    fail: (d) => {
      set(d, "/nodes", []);
      set(d, "/edges", []);
      del(d, "/mainPath");
      del(d, "/semanticChecks");
      del(d, "/cards");
      del(d, "/meta/views");
    },
  },
  {
    name: "edges are required",
    expect: one("schema/required", "/edges"),
    fail: (d) => {
      del(d, "/edges");
      del(d, "/mainPath");
      del(d, "/semanticChecks");
      del(d, "/meta/views/0/edges");
    },
    pass: (d) => {
      set(d, "/edges", []);
      del(d, "/mainPath");
      del(d, "/semanticChecks");
      del(d, "/meta/views/0/edges");
    },
  },
  {
    name: "unknown top-level property",
    expect: one("schema/additionalProperties", "/colour"),
    fail: (d) => set(d, "/colour", "red"),
  },
  {
    name: "mainPath has at least 2 items",
    expect: one("schema/minItems", "/mainPath"),
    fail: (d) => set(d, "/mainPath", ["a"]),
    pass: (d) => set(d, "/mainPath", ["a", "b"]),
  },
  {
    name: "mainPath items are ids",
    expect: one("schema/pattern", "/mainPath/1"),
    fail: (d) => set(d, "/mainPath/1", "b c"),
  },
  {
    name: "semanticChecks has at least 1 property",
    expect: one("schema/minProperties", "/semanticChecks"),
    fail: (d) => set(d, "/semanticChecks", {}),
    pass: (d) => set(d, "/semanticChecks", { allowedRoots: ["a"] }),
  },
  {
    name: "semanticChecks knows only its four checks",
    expect: one("schema/additionalProperties", "/semanticChecks/allowedRoot"),
    fail: (d) => set(d, "/semanticChecks/allowedRoot", ["a"]),
  },
  {
    name: "requiredEdges items need from",
    expect: one("schema/required", "/semanticChecks/requiredEdges/0/from"),
    fail: (d) => del(d, "/semanticChecks/requiredEdges/0/from"),
  },
  {
    name: "requiredPaths items need to",
    expect: one("schema/required", "/semanticChecks/requiredPaths/0/to"),
    fail: (d) => del(d, "/semanticChecks/requiredPaths/0/to"),
  },
  {
    name: "requiredEdges items take no other fields",
    expect: one("schema/additionalProperties", "/semanticChecks/requiredEdges/0/label"),
    fail: (d) => set(d, "/semanticChecks/requiredEdges/0/label", "x"),
  },
  {
    name: "requiredPaths items take no other fields",
    expect: one("schema/additionalProperties", "/semanticChecks/requiredPaths/0/via"),
    fail: (d) => set(d, "/semanticChecks/requiredPaths/0/via", "b"),
  },

  {
    name: "a $schema key is refused like any unknown property",
    expect: one("schema/additionalProperties", "/$schema"),
    fail: (d) => set(d, "/$schema", "./workflow.schema.json"),
  },

  // meta
  {
    name: "meta.title is required",
    expect: one("schema/required", "/meta/title"),
    fail: (d) => del(d, "/meta/title"),
  },
  {
    name: "meta.title is not empty",
    expect: one("schema/minLength", "/meta/title"),
    fail: (d) => set(d, "/meta/title", ""),
    pass: (d) => set(d, "/meta/title", "T"),
  },
  {
    name: "meta.locale is BCP 47",
    expect: one("schema/pattern", "/meta/locale"),
    fail: (d) => set(d, "/meta/locale", "english"),
    pass: (d) => set(d, "/meta/locale", "zh-Hant-TW"),
  },
  {
    name: "meta.locale region may be numeric",
    expect: one("schema/pattern", "/meta/locale"),
    fail: (d) => set(d, "/meta/locale", "pt_BR"),
    pass: (d) => set(d, "/meta/locale", "es-419"),
  },
  {
    name: "meta.subtitle is a string",
    expect: one("schema/type", "/meta/subtitle"),
    fail: (d) => set(d, "/meta/subtitle", 1),
    pass: (d) => set(d, "/meta/subtitle", ""),
  },
  {
    name: "meta.output is a string",
    expect: one("schema/type", "/meta/output"),
    fail: (d) => set(d, "/meta/output", true),
  },
  {
    name: "meta.animation is trace or none",
    expect: one("schema/enum", "/meta/animation"),
    fail: (d) => set(d, "/meta/animation", "fade"),
    pass: (d) => set(d, "/meta/animation", "none"),
  },
  {
    name: "meta.visual_preset is one of four",
    expect: one("schema/enum", "/meta/visual_preset"),
    fail: (d) => set(d, "/meta/visual_preset", "dark"),
    pass: (d) => set(d, "/meta/visual_preset", "editorial"),
  },
  {
    name: "meta.quality_profile is standard or showcase",
    expect: one("schema/enum", "/meta/quality_profile"),
    fail: (d) => set(d, "/meta/quality_profile", "draft"),
    pass: (d) => set(d, "/meta/quality_profile", "showcase"),
  },
  {
    name: "meta knows only its fields",
    expect: one("schema/additionalProperties", "/meta/author"),
    fail: (d) => set(d, "/meta/author", "me"),
  },
  {
    name: "meta.viewBox width at least 700",
    expect: one("schema/minimum", "/meta/viewBox/0"),
    fail: (d) => set(d, "/meta/viewBox", [699.5, 300]),
    pass: (d) => set(d, "/meta/viewBox", [700, 300]),
  },
  {
    name: "meta.viewBox height at least 240",
    expect: one("schema/minimum", "/meta/viewBox/1"),
    fail: (d) => set(d, "/meta/viewBox", [800, 239]),
    pass: (d) => set(d, "/meta/viewBox", [800, 240]),
  },
  {
    name: "meta.viewBox has 2 numbers, not 1",
    expect: one("schema/minItems", "/meta/viewBox"),
    fail: (d) => set(d, "/meta/viewBox", [800]),
  },
  {
    name: "meta.viewBox has 2 numbers, not 3",
    expect: one("schema/maxItems", "/meta/viewBox"),
    fail: (d) => set(d, "/meta/viewBox", [800, 300, 1]),
  },
  {
    name: "meta.viewBox holds numbers",
    expect: one("schema/type", "/meta/viewBox/0"),
    fail: (d) => set(d, "/meta/viewBox", ["800", 300]),
  },
  {
    name: "legend.mode is auto, manual or hidden",
    expect: one("schema/enum", "/meta/legend/mode"),
    fail: (d) => set(d, "/meta/legend/mode", "none"),
    pass: (d) => set(d, "/meta/legend/mode", "manual"),
  },
  {
    name: "legend.entries keys are the legend categories",
    expect: one("schema/additionalProperties", "/meta/legend/entries/queue"),
    fail: (d) => set(d, "/meta/legend/entries/queue", { label: "Q" }),
    pass: (d) => set(d, "/meta/legend/entries/messagebus", { label: "Q" }),
  },
  {
    name: "legend entry needs a label",
    expect: one("schema/required", "/meta/legend/entries/backend/label"),
    fail: (d) => del(d, "/meta/legend/entries/backend/label"),
  },
  {
    name: "legend entry label is not empty",
    expect: one("schema/minLength", "/meta/legend/entries/backend/label"),
    fail: (d) => set(d, "/meta/legend/entries/backend/label", ""),
  },
  {
    name: "legend knows only mode and entries",
    expect: one("schema/additionalProperties", "/meta/legend/position"),
    fail: (d) => set(d, "/meta/legend/position", "top"),
  },

  // guided views (v2)
  {
    name: "views have at least 1 item",
    expect: one("schema/minItems", "/meta/views"),
    fail: (d) => set(d, "/meta/views", []),
  },
  {
    name: "view needs nodes",
    expect: one("schema/required", "/meta/views/0/nodes"),
    fail: (d) => del(d, "/meta/views/0/nodes"),
  },
  {
    name: "view nodes have at least 1 item",
    expect: one("schema/minItems", "/meta/views/0/nodes"),
    fail: (d) => set(d, "/meta/views/0/nodes", []),
  },
  {
    name: "view title is not empty",
    expect: one("schema/minLength", "/meta/views/0/title"),
    fail: (d) => set(d, "/meta/views/0/title", ""),
  },
  {
    name: "view ids are unique",
    expect: one("id/duplicate", "/meta/views/1/id"),
    fail: (d) => set(d, "/meta/views/1", { id: "v1", title: "Again", nodes: ["b"] }),
    pass: (d) => set(d, "/meta/views/1", { id: "v2", title: "Again", nodes: ["b"] }),
  },
  {
    name: "view nodes name nodes",
    expect: one("ref/node", "/meta/views/0/nodes/0"),
    fail: (d) => set(d, "/meta/views/0/nodes/0", "zz"),
  },
  {
    name: "view edges name edge ids",
    expect: one("ref/edge", "/meta/views/0/edges/0"),
    fail: (d) => set(d, "/meta/views/0/edges/0", "e9"),
    pass: (d) => set(d, "/meta/views/0/edges/0", "e3"),
  },

  // version 2 additions
  {
    name: "meta.views needs schema_version 2",
    expect: one("version/v2-only", "/meta/views"),
    fail: (d) => {
      set(d, "/schema_version", 1);
      del(d, "/cards");
    },
    pass: v1,
  },
  {
    name: "cards need schema_version 2",
    expect: one("version/v2-only", "/cards"),
    fail: (d) => {
      set(d, "/schema_version", 1);
      del(d, "/meta/views");
    },
  },

  // lanes
  {
    name: "lane needs an id",
    expect: one("schema/required", "/lanes/1/id"),
    fail: (d) => {
      del(d, "/lanes/1/id");
      set(d, "/nodes/2/lane", "l1");
      set(d, "/nodes/2/col", 2);
    },
  },
  {
    name: "lane id is an id",
    expect: one("schema/pattern", "/lanes/2/id"),
    fail: (d) => set(d, "/lanes/2", { id: "1st", label: "x" }),
    pass: (d) => {
      set(d, "/lanes/0/id", "L_1-a");
      set(d, "/nodes/0/lane", "L_1-a");
      set(d, "/nodes/1/lane", "L_1-a");
      set(d, "/groups/0/lane", "L_1-a");
    },
  },
  {
    name: "ids are at most 64 characters",
    expect: one("schema/pattern", "/lanes/2/id"),
    fail: (d) => set(d, "/lanes/2", { id: `a${"x".repeat(64)}`, label: "x" }),
    pass: (d) => set(d, "/lanes/2", { id: `a${"x".repeat(63)}`, label: "x" }),
  },
  {
    name: "a malformed id is reported where it is declared, not at each reference",
    expect: [
      { rule: "schema/pattern", path: "/lanes/0/id" },
      { rule: "schema/pattern", path: "/groups/0/lane" },
      { rule: "schema/pattern", path: "/nodes/0/lane" },
      { rule: "schema/pattern", path: "/nodes/1/lane" },
    ],
    fail: (d) => {
      for (const path of ["/lanes/0/id", "/groups/0/lane", "/nodes/0/lane", "/nodes/1/lane"])
        set(d, path, "lane one");
    },
  },
  {
    name: "lane label is not empty",
    expect: one("schema/minLength", "/lanes/0/label"),
    fail: (d) => set(d, "/lanes/0/label", ""),
  },
  {
    name: "lane variant is normal or exception",
    expect: one("schema/enum", "/lanes/1/variant"),
    fail: (d) => set(d, "/lanes/1/variant", "error"),
  },
  {
    name: "lane ids are unique",
    expect: one("id/duplicate", "/lanes/2/id"),
    fail: (d) => set(d, "/lanes/2", { id: "l1", label: "Again" }),
    pass: (d) => set(d, "/lanes/2", { id: "l3", label: "Three" }),
  },
  {
    name: "lane knows only its fields",
    expect: one("schema/additionalProperties", "/lanes/0/color"),
    fail: (d) => set(d, "/lanes/0/color", "red"),
  },

  // phases
  {
    name: "phase fromCol at most 5",
    expect: one("schema/maximum", "/phases/0/toCol"),
    fail: (d) => set(d, "/phases/0/toCol", 6),
    pass: (d) => set(d, "/phases/0/toCol", 5),
  },
  {
    name: "phase fromCol at least 0",
    expect: one("schema/minimum", "/phases/0/fromCol"),
    fail: (d) => set(d, "/phases/0/fromCol", -1),
  },
  {
    name: "phase columns are integers",
    expect: one("schema/type", "/phases/0/fromCol"),
    fail: (d) => set(d, "/phases/0/fromCol", 0.5),
  },
  {
    name: "phase fromCol not after toCol",
    expect: one("cols/order", "/phases/0/fromCol"),
    fail: (d) => set(d, "/phases/0/fromCol", 3),
    pass: (d) => set(d, "/phases/0/fromCol", 2),
  },
  {
    name: "phase needs toCol",
    expect: one("schema/required", "/phases/0/toCol"),
    fail: (d) => del(d, "/phases/0/toCol"),
  },
  {
    name: "phase variant",
    expect: one("schema/enum", "/phases/0/variant"),
    fail: (d) => set(d, "/phases/0/variant", "muted"),
    pass: (d) => set(d, "/phases/0/variant", "dashed"),
  },
  {
    name: "phase ids are unique",
    expect: one("id/duplicate", "/phases/1/id"),
    fail: (d) => set(d, "/phases/1", { id: "p1", label: "P", fromCol: 3, toCol: 5 }),
  },

  // groups
  {
    name: "group lane names a lane",
    expect: one("ref/lane", "/groups/0/lane"),
    fail: (d) => set(d, "/groups/0/lane", "l9"),
    pass: (d) => set(d, "/groups/0/lane", "l2"),
  },
  {
    name: "group needs a lane",
    expect: one("schema/required", "/groups/0/lane"),
    fail: (d) => del(d, "/groups/0/lane"),
  },
  {
    name: "group fromCol not after toCol",
    expect: one("cols/order", "/groups/0/fromCol"),
    fail: (d) => set(d, "/groups/0/fromCol", 2),
    pass: (d) => set(d, "/groups/0/fromCol", 1),
  },
  {
    name: "group toCol at most 5",
    expect: one("schema/maximum", "/groups/0/toCol"),
    fail: (d) => set(d, "/groups/0/toCol", 7),
  },
  {
    name: "group variant",
    expect: one("schema/enum", "/groups/0/variant"),
    fail: (d) => set(d, "/groups/0/variant", "bold"),
    pass: (d) => set(d, "/groups/0/variant", "security"),
  },
  {
    name: "group ids are unique",
    expect: one("id/duplicate", "/groups/1/id"),
    fail: (d) => set(d, "/groups/1", { id: "g1", label: "G", lane: "l2", fromCol: 0, toCol: 0 }),
  },

  // nodes
  {
    name: "node col at most 5",
    expect: one("schema/maximum", "/nodes/2/col"),
    fail: (d) => set(d, "/nodes/2/col", 6),
    pass: (d) => set(d, "/nodes/2/col", 5),
  },
  {
    name: "node col at least 0",
    expect: one("schema/minimum", "/nodes/2/col"),
    fail: (d) => set(d, "/nodes/2/col", -1),
    pass: (d) => set(d, "/nodes/2/col", 0),
  },
  {
    name: "node col is an integer",
    expect: one("schema/type", "/nodes/2/col"),
    fail: (d) => set(d, "/nodes/2/col", 2.5),
  },
  {
    name: "node type is a component type",
    expect: one("schema/enum", "/nodes/1/type"),
    fail: (d) => set(d, "/nodes/1/type", "server"),
    pass: (d) => set(d, "/nodes/1/type", "service"),
  },
  {
    name: "node needs a label",
    expect: one("schema/required", "/nodes/1/label"),
    fail: (d) => del(d, "/nodes/1/label"),
  },
  {
    name: "node label is not empty",
    expect: one("schema/minLength", "/nodes/1/label"),
    fail: (d) => set(d, "/nodes/1/label", ""),
  },
  {
    name: "node lane names a lane",
    expect: one("ref/lane", "/nodes/2/lane"),
    fail: (d) => set(d, "/nodes/2/lane", "l3"),
  },
  {
    name: "node width at least 32",
    expect: one("schema/minimum", "/nodes/1/width"),
    fail: (d) => set(d, "/nodes/1/width", 31.9),
    pass: (d) => set(d, "/nodes/1/width", 32),
  },
  {
    name: "node height at least 32",
    expect: one("schema/minimum", "/nodes/1/height"),
    fail: (d) => set(d, "/nodes/1/height", 0),
    pass: (d) => set(d, "/nodes/1/height", 32),
  },
  {
    name: "node yOffset is a number",
    expect: one("schema/type", "/nodes/1/yOffset"),
    fail: (d) => set(d, "/nodes/1/yOffset", "4"),
    pass: (d) => set(d, "/nodes/1/yOffset", -12.5),
  },
  {
    name: "node sublabel is a string",
    expect: one("schema/type", "/nodes/1/sublabel"),
    fail: (d) => set(d, "/nodes/1/sublabel", ["x"]),
  },
  {
    name: "node tag is a string",
    expect: one("schema/type", "/nodes/1/tag"),
    fail: (d) => set(d, "/nodes/1/tag", null),
  },
  {
    name: "node ids are unique",
    expect: one("id/duplicate", "/nodes/3/id"),
    fail: (d) => set(d, "/nodes/3", { id: "a", lane: "l2", col: 4, type: "end", label: "A2" }),
  },
  {
    name: "one node per lane and column",
    expect: one("layout/shared-cell", "/nodes/2/col"),
    fail: (d) => {
      set(d, "/nodes/2/lane", "l1");
      set(d, "/nodes/2/col", 1);
    },
    pass: (d) => {
      set(d, "/nodes/2/lane", "l1");
      set(d, "/nodes/2/col", 2);
    },
  },
  {
    name: "brand needs a name",
    expect: one("schema/required", "/nodes/1/brand/name"),
    fail: (d) => del(d, "/nodes/1/brand/name"),
  },
  {
    name: "brand monogram at most 3 characters",
    expect: one("schema/maxLength", "/nodes/1/brand/monogram"),
    fail: (d) => set(d, "/nodes/1/brand/monogram", "ABCD"),
    pass: (d) => set(d, "/nodes/1/brand/monogram", "ABC"),
  },
  {
    name: "brand monogram not empty",
    expect: one("schema/minLength", "/nodes/1/brand/monogram"),
    fail: (d) => set(d, "/nodes/1/brand/monogram", ""),
  },
  {
    name: "brand color is #rrggbb",
    expect: one("schema/pattern", "/nodes/1/brand/color"),
    fail: (d) => set(d, "/nodes/1/brand/color", "#12345"),
    pass: (d) => set(d, "/nodes/1/brand/color", "#ABCdef"),
  },
  {
    name: "brand knows only name, monogram, color",
    expect: one("schema/additionalProperties", "/nodes/1/brand/logo"),
    fail: (d) => set(d, "/nodes/1/brand/logo", "x.png"),
  },

  // edges
  {
    name: "edge needs from",
    expect: one("schema/required", "/edges/2/from"),
    fail: (d) => del(d, "/edges/2/from"),
  },
  {
    name: "edge needs to",
    expect: one("schema/required", "/edges/2/to"),
    fail: (d) => del(d, "/edges/2/to"),
  },
  {
    name: "edge id is optional",
    expect: one("schema/pattern", "/edges/2/id"),
    fail: (d) => set(d, "/edges/2/id", "-e3"),
    pass: (d) => del(d, "/edges/2/id"),
  },
  {
    name: "edge from names a node",
    expect: one("ref/node", "/edges/2/from"),
    fail: (d) => set(d, "/edges/2/from", "x"),
  },
  {
    name: "edge to names a node",
    expect: one("ref/node", "/edges/2/to"),
    fail: (d) => set(d, "/edges/2/to", "cc"),
  },
  {
    name: "edge ids are unique",
    expect: one("id/duplicate", "/edges/2/id"),
    fail: (d) => set(d, "/edges/2/id", "e1"),
  },
  {
    name: "edge variant",
    expect: one("schema/enum", "/edges/0/variant"),
    fail: (d) => set(d, "/edges/0/variant", "bold"),
    pass: (d) => set(d, "/edges/0/variant", "dotted"),
  },
  {
    name: "edge role",
    expect: one("schema/enum", "/edges/0/role"),
    fail: (d) => set(d, "/edges/0/role", "primary"),
    pass: (d) => set(d, "/edges/0/role", "async"),
  },
  {
    name: "edge fromSide",
    expect: one("schema/enum", "/edges/0/fromSide"),
    fail: (d) => set(d, "/edges/0/fromSide", "center"),
    pass: (d) => set(d, "/edges/0/fromSide", "top"),
  },
  {
    name: "edge toSide",
    expect: one("schema/enum", "/edges/0/toSide"),
    fail: (d) => set(d, "/edges/0/toSide", "up"),
    pass: (d) => set(d, "/edges/0/toSide", "bottom"),
  },
  {
    name: "edge route",
    expect: one("schema/enum", "/edges/0/route"),
    fail: (d) => set(d, "/edges/0/route", "outside-left"),
    pass: (d) => set(d, "/edges/0/route", "up-channel"),
  },
  {
    name: "edge via holds points",
    expect: one("schema/required", "/edges/0/via/0/y"),
    fail: (d) => set(d, "/edges/0/via/0", { x: 1 }),
  },
  {
    name: "point knows only x and y",
    expect: one("schema/additionalProperties", "/edges/0/labelAt/z"),
    fail: (d) => set(d, "/edges/0/labelAt", { x: 1, y: 2, z: 3 }),
  },
  {
    name: "point coordinates are numbers",
    expect: one("schema/type", "/edges/0/labelAt/x"),
    fail: (d) => set(d, "/edges/0/labelAt/x", "1"),
  },
  {
    name: "edge labelDx is a number",
    expect: one("schema/type", "/edges/0/labelDx"),
    fail: (d) => set(d, "/edges/0/labelDx", "1"),
  },
  {
    name: "edge labelSegment at least 0",
    expect: one("schema/minimum", "/edges/0/labelSegment"),
    fail: (d) => set(d, "/edges/0/labelSegment", -1),
    pass: (d) => set(d, "/edges/0/labelSegment", 3),
  },
  {
    name: "edge labelSegment is an integer",
    expect: one("schema/type", "/edges/0/labelSegment"),
    fail: (d) => set(d, "/edges/0/labelSegment", 1.5),
  },
  {
    name: "edge channelY is a number",
    expect: one("schema/type", "/edges/0/channelY"),
    fail: (d) => set(d, "/edges/0/channelY", false),
  },
  {
    name: "edge bias at most 1",
    expect: one("schema/maximum", "/edges/0/bias"),
    fail: (d) => set(d, "/edges/0/bias", 1.01),
    pass: (d) => set(d, "/edges/0/bias", 1),
  },
  {
    name: "edge bias at least 0",
    expect: one("schema/minimum", "/edges/0/bias"),
    fail: (d) => set(d, "/edges/0/bias", -0.01),
    pass: (d) => set(d, "/edges/0/bias", 0),
  },
  {
    name: "edge width at least 0.5",
    expect: one("schema/minimum", "/edges/0/width"),
    fail: (d) => set(d, "/edges/0/width", 0.49),
    pass: (d) => set(d, "/edges/0/width", 0.5),
  },
  {
    name: "edge knows only its fields",
    expect: one("schema/additionalProperties", "/edges/0/arrow"),
    fail: (d) => set(d, "/edges/0/arrow", "none"),
  },

  // mainPath and semanticChecks evaluated on the graph
  {
    name: "mainPath names nodes",
    expect: one("ref/node", "/mainPath/2"),
    fail: (d) => set(d, "/mainPath/2", "d"),
  },
  {
    name: "consecutive mainPath ids are joined by an edge",
    expect: one("mainPath/edge", "/mainPath/2"),
    fail: (d) => set(d, "/mainPath", ["a", "c", "b"]),
    pass: (d) => set(d, "/mainPath", ["a", "c"]),
  },
  {
    name: "mainPath follows edge direction",
    expect: one("mainPath/edge", "/mainPath/1"),
    fail: (d) => set(d, "/mainPath", ["b", "a"]),
  },
  {
    name: "allowedRoots names nodes",
    expect: one("ref/node", "/semanticChecks/allowedRoots/1"),
    fail: (d) => set(d, "/semanticChecks/allowedRoots/1", "q"),
  },
  {
    name: "every root is an allowed root",
    expect: one("checks/allowed-roots", "/nodes/0"),
    fail: (d) => set(d, "/semanticChecks/allowedRoots", ["b"]),
    pass: (d) => set(d, "/semanticChecks/allowedRoots", ["a", "b"]),
  },
  {
    name: "every terminal is an allowed terminal",
    expect: one("checks/allowed-terminals", "/nodes/2"),
    fail: (d) => set(d, "/semanticChecks/allowedTerminals", ["b"]),
    pass: (d) => set(d, "/semanticChecks/allowedTerminals", ["c", "b"]),
  },
  {
    name: "a new dead end breaks allowedTerminals",
    expect: one("checks/allowed-terminals", "/nodes/3"),
    fail: (d) => {
      set(d, "/nodes/3", { id: "d", lane: "l2", col: 3, type: "end", label: "D" });
      set(d, "/edges/3", { from: "c", to: "d" });
      set(d, "/semanticChecks/allowedTerminals", ["c"]);
    },
  },
  {
    name: "requiredEdges exist",
    expect: one("checks/required-edge", "/semanticChecks/requiredEdges/0"),
    fail: (d) => set(d, "/semanticChecks/requiredEdges/0", { from: "b", to: "a" }),
    pass: (d) => set(d, "/semanticChecks/requiredEdges/0", { from: "a", to: "c" }),
  },
  {
    name: "requiredEdges name nodes",
    expect: one("ref/node", "/semanticChecks/requiredEdges/0/to"),
    fail: (d) => set(d, "/semanticChecks/requiredEdges/0/to", "bb"),
  },
  {
    name: "requiredPaths exist by reachability",
    expect: one("checks/required-path", "/semanticChecks/requiredPaths/0"),
    fail: (d) => set(d, "/semanticChecks/requiredPaths/0", { from: "c", to: "a" }),
    pass: (d) => {
      del(d, "/edges/2");
      set(d, "/semanticChecks/requiredPaths/0", { from: "a", to: "c" });
      set(d, "/meta/views/0/edges", ["e1"]);
    },
  },
  {
    name: "requiredPaths name nodes",
    expect: one("ref/node", "/semanticChecks/requiredPaths/0/from"),
    fail: (d) => set(d, "/semanticChecks/requiredPaths/0/from", "A"),
  },

  // cards (v2)
  {
    name: "cards keys are ids",
    expect: one("schema/propertyNames", "/cards/node b"),
    fail: (d) => set(d, "/cards/node b", { body: ["x"] }),
  },
  {
    name: "cards keys are node ids",
    expect: one("ref/node", "/cards/z"),
    fail: (d) => set(d, "/cards/z", { body: ["x"] }),
    pass: (d) => set(d, "/cards/c", { body: ["x"] }),
  },
  {
    name: "card needs a body",
    expect: one("schema/required", "/cards/b/body"),
    fail: (d) => del(d, "/cards/b/body"),
  },
  {
    name: "card body has at least 1 paragraph",
    expect: one("schema/minItems", "/cards/b/body"),
    fail: (d) => set(d, "/cards/b/body", []),
  },
  {
    name: "card paragraphs are not empty",
    expect: one("schema/minLength", "/cards/b/body/0"),
    fail: (d) => set(d, "/cards/b/body/0", ""),
  },
  {
    name: "card link href is https or relative",
    expect: one("schema/pattern", "/cards/b/links/0/href"),
    fail: (d) => set(d, "/cards/b/links/0/href", "javascript:alert(1)"),
    pass: (d) => set(d, "/cards/b/links/0/href", "../docs/b.md#top"),
  },
  {
    name: "card link href is not plain http",
    expect: one("schema/pattern", "/cards/b/links/0/href"),
    fail: (d) => set(d, "/cards/b/links/0/href", "http://example.com"),
  },
  {
    name: "card link href is not protocol-relative",
    expect: one("schema/pattern", "/cards/b/links/0/href"),
    fail: (d) => set(d, "/cards/b/links/0/href", "//example.com/x"),
  },
  {
    name: "card link needs a label",
    expect: one("schema/required", "/cards/b/links/0/label"),
    fail: (d) => del(d, "/cards/b/links/0/label"),
  },
  {
    name: "card knows only title, body, links",
    expect: one("schema/additionalProperties", "/cards/b/image"),
    fail: (d) => set(d, "/cards/b/image", "x.png"),
  },
];

describe("conformance: one description per rule that passes, one that breaks only that rule", () => {
  it("the base description is valid", () => {
    expect(check(baseDiagram())).toEqual([]);
  });

  it.each(CASES)("$name", ({ expect: expected, fail, pass }) => {
    const broken = baseDiagram();
    fail(broken);
    expect(rulesAndPaths(check(broken))).toEqual(expected);
    if (pass) {
      const kept = baseDiagram();
      pass(kept);
      expect(check(kept)).toEqual([]);
    }
  });

  it("the built validator (ajv standalone code in dist/) gives the same problems as the source", async () => {
    const url = new URL("../dist/validate/index.js", import.meta.url).href;
    const built = (await import(url)) as typeof import("../src/validate/index.js");
    for (const { fail } of CASES) {
      const d = baseDiagram();
      fail(d);
      const text = JSON.stringify(d, null, 2);
      expect((await built.validateSource(text)).problems).toEqual(
        (await validateSource(text)).problems,
      );
    }
  });

  it("every rule in the catalogue is broken by some case and passes in the base", () => {
    const broken = new Set(CASES.flatMap((c) => c.expect.map((e) => e.rule)));
    // json/* rules are about the text, not the value: they are covered in validate-locations.
    const valueRules = Object.keys(RULES).filter((rule) => !rule.startsWith("json/"));
    expect(valueRules.filter((rule) => !broken.has(rule))).toEqual([]);
  });
});
