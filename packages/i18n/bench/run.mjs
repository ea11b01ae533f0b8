// npm run bench:i18n — t() through the engine against raw i18next on the same dictionaries,
// applyTenantOverrides of 2,000 keys into a 10,000-key namespace, and the engine's bundle size.
// Runs against dist/ (the bench script builds first). Medians, side by side, one run.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import i18next from "i18next";
import { Bench } from "tinybench";
import { createI18nEngine } from "../dist/index.js";

const root = new URL("..", import.meta.url);
const json = (path) => JSON.parse(readFileSync(new URL(path, root), "utf8"));
const common = { en: json("locales/en/common.json"), de: json("locales/de/common.json") };
const booking = {
  en: json("examples/booking/locales/en/booking.json"),
  de: json("examples/booking/locales/de/booking.json"),
};
const memoryStorage = (value) => ({
  getLanguage: async () => value,
  setLanguage: async (lng) => {
    value = lng;
  },
});

/** 100 sections × 100 keys; every fifth key overridden: 2,000 keys spread over the namespace. */
const catalog = {};
const overrides = {};
for (let s = 0; s < 100; s++) {
  const section = {};
  const changed = {};
  for (let k = 0; k < 100; k++) {
    section[`key${k}`] = `Section ${s} text ${k} for {{name}}`;
    if (k % 5 === 0) changed[`key${k}`] = `Tenant wording ${s}.${k}`;
  }
  catalog[`section${s}`] = section;
  overrides[`section${s}`] = changed;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// --- t(): engine vs raw i18next -----------------------------------------------------------
const engine = createI18nEngine();
engine.registerModuleNamespace("common", common);
engine.registerModuleNamespace("booking", booking);
await engine.setupI18n({ storageAdapter: memoryStorage("en") });

const raw = i18next.createInstance();
await raw.init({
  lng: "en",
  fallbackLng: "en",
  defaultNS: "common",
  ns: ["common", "booking"],
  resources: {
    en: { common: common.en, booking: booking.en },
    de: { common: common.de, booking: booking.de },
  },
  interpolation: { escapeValue: false },
  initAsync: false,
});

// The hook's t is i18next's fixed t for [module, common]; the same for both.
const engineFixed = engine.i18n.getFixedT("en", "booking", undefined, {
  scopeNs: ["booking", "common"],
});
const rawFixed = raw.getFixedT("en", "booking", undefined, { scopeNs: ["booking", "common"] });

const BATCH = 1000;
const cases = {
  "t('booking:header.title')": [
    () => engine.i18n.t("booking:header.title"),
    () => raw.t("booking:header.title"),
  ],
  "t('greeting', { name })": [
    () => engine.i18n.t("greeting", { name: "Ada" }),
    () => raw.t("greeting", { name: "Ada" }),
  ],
  "t('table.guests', { count }) (plural)": [
    () => engineFixed("table.guests", { count: 3 }),
    () => rawFixed("table.guests", { count: 3 }),
  ],
  "module t('header.title') + t('common:actions.save')": [
    () => engineFixed("header.title") + engineFixed("common:actions.save"),
    () => rawFixed("header.title") + rawFixed("common:actions.save"),
  ],
};
for (const [name, [e, r]] of Object.entries(cases)) {
  if (e() !== r()) throw new Error(`${name}: engine and raw i18next disagree (${e()} vs ${r()})`);
}

const ROUNDS = 7;
const tRows = [];
for (const [name, [engineT, rawT]] of Object.entries(cases)) {
  const engineRounds = [];
  const rawRounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate the order each round so neither side always runs on a warmer machine.
    const bench = new Bench({ time: 150, warmupTime: 50 });
    const runEngine = () => {
      for (let i = 0; i < BATCH; i++) engineT();
    };
    const runRaw = () => {
      for (let i = 0; i < BATCH; i++) rawT();
    };
    if (round % 2) bench.add("raw", runRaw).add("engine", runEngine);
    else bench.add("engine", runEngine).add("raw", runRaw);
    await bench.run();
    for (const task of bench.tasks) {
      const perCallNs = (task.result.latency.p50 * 1e6) / BATCH;
      (task.name === "engine" ? engineRounds : rawRounds).push(perCallNs);
    }
  }
  const e = median(engineRounds);
  const r = median(rawRounds);
  tRows.push({
    call: name,
    "engine ns/call": e.toFixed(1),
    "raw i18next ns/call": r.toFixed(1),
    difference: `${(((e - r) / r) * 100).toFixed(1)}%`,
  });
}

// --- applyTenantOverrides: 2,000 keys into a 10,000-key namespace ---------------------------
const big = createI18nEngine();
big.registerModuleNamespace("common", { en: common.en });
big.registerModuleNamespace("catalog", { en: catalog });
await big.setupI18n({ storageAdapter: memoryStorage("en") });
const overrideBench = new Bench({ time: 2000, warmupTime: 200 });
overrideBench.add("applyTenantOverrides 2,000 keys → 10,000-key namespace", () => {
  big.applyTenantOverrides("catalog", overrides);
});
// What i18next alone costs for the same merge, for scale.
const plain = i18next.createInstance();
await plain.init({ lng: "en", resources: { en: { catalog } }, initAsync: false });
overrideBench.add("raw i18next addResourceBundle(deep, overwrite), same data", () => {
  plain.addResourceBundle("en", "catalog", overrides, true, true);
});
await overrideBench.run();
if (big.i18n.t("catalog:section7.key10") !== "Tenant wording 7.10")
  throw new Error("overrides not applied");
if (big.i18n.t("catalog:section7.key11", { name: "x" }) !== "Section 7 text 11 for x")
  throw new Error("untouched key changed");
const overrideRows = overrideBench.tasks.map((task) => ({
  operation: task.name,
  "median ms": task.result.latency.p50.toFixed(3),
  "p99 ms": task.result.latency.p99.toFixed(3),
  samples: task.result.latency.samplesCount ?? task.runs,
}));

// --- bundle size: minified + gzipped, peers external -----------------------------------------
const peers = ["i18next", "react", "react-dom", "react-i18next", "react/jsx-runtime"];
const size = async (entry) => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, root))],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    external: peers,
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
};
const core = await size("dist/index.js");
const withReact = await size("dist/react/index.js");
const sizeRows = [
  { entry: "@orderline/i18n (core)", "minified B": core.minified, "min+gzip B": core.gzipped },
  {
    entry: "@orderline/i18n/react (hook + provider, includes core)",
    "minified B": withReact.minified,
    "min+gzip B": withReact.gzipped,
  },
];

const i18nextVersion = createRequire(import.meta.url)("i18next/package.json").version;
console.log(`Node ${process.version}, i18next ${i18nextVersion}`);
console.log(
  "\nt(): engine vs raw i18next, median of 7 rounds of per-round medians, 1,000 calls per sample",
);
console.table(tRows);
console.log("\napplyTenantOverrides (tinybench medians)");
console.table(overrideRows);
console.log("\nBundle size (esbuild, minified, gzip -9, peers external)");
console.table(sizeRows);
