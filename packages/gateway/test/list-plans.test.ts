/**
 * Every order listing filter is an index range read in the listing's order: the
 * plans of the statements the stores run, as each database explains them, over a store seeded
 * with enough orders that PostgreSQL's planner prefers a scan where no index serves. A plan that
 * scans the table, reads a partner's whole range and filters it, or sorts fails.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedOrdersStatement } from "../bench/seed-orders.mjs";
import { openStore } from "../src/store/open.js";
import { partnerOrdersStatement, type Statement } from "../src/store/order-moves.js";
import {
  countStatement,
  numberStatement,
  searchStatement,
  windowFloorStatement,
} from "../src/store/order-search.js";
import type { OrderFilter } from "../src/store/store.js";
import { freshDatabaseUrl, type StoreKind, storeKinds } from "./support/stores.js";

const DAY = 86_400_000;
const END = Date.UTC(2026, 0, 1);

/** Each filter the listings take, with the columns its index range must constrain. */
const FILTERS: { name: string; filter: OrderFilter; constrains: string[] }[] = [
  { name: "none", filter: {}, constrains: [] },
  { name: "status", filter: { status: "accepted" }, constrains: ["status"] },
  { name: "created_from", filter: { createdFrom: END - 30 * DAY }, constrains: ["created_at"] },
  { name: "created_to", filter: { createdTo: END - 300 * DAY }, constrains: ["created_at"] },
  {
    name: "window",
    filter: { createdFrom: END - 200 * DAY, createdTo: END - 199 * DAY },
    constrains: ["created_at"],
  },
  {
    name: "status in a window",
    filter: { status: "accepted", createdFrom: END - 200 * DAY, createdTo: END - 100 * DAY },
    constrains: ["status", "created_at"],
  },
  {
    name: "purchase_order_no",
    filter: { purchaseOrderNo: "SEED-77", status: "received", createdFrom: END - 300 * DAY },
    constrains: ["purchase_order_no"],
  },
];

const CURSORS = [undefined, 4_000];

interface Explainer {
  /** The plan's lines (SQLite) or nodes (PostgreSQL) as text, and the problems it shows. */
  problems(sql: string, params: unknown[], constrains: string[]): Promise<string[]>;
  /** Each table read of the plan: `SEARCH t USING INDEX i (…)`, `SCAN t`, `Index Scan t: cond`. */
  reads(sql: string, params: unknown[]): Promise<string[]>;
  close(): Promise<void>;
}

function sqliteExplainer(path: string): Explainer {
  const db = new Database(path, { readonly: true });
  return {
    async problems(sql, params, constrains) {
      const plan = (
        db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]
      ).map((r) => r.detail);
      const problems = plan.filter((d) => /^SCAN sales_orders|TEMP B-TREE/.test(d));
      const search = plan.find((d) => /^SEARCH sales_orders USING (COVERING )?INDEX/.test(d));
      if (search === undefined) problems.push(`no index search: ${plan.join(" | ")}`);
      for (const column of constrains)
        if (
          !search?.includes(`${column}=`) &&
          !search?.includes(`${column}>`) &&
          !search?.includes(`${column}<`)
        )
          problems.push(`${column} not in the index range: ${search}`);
      return problems;
    },
    async reads(sql, params) {
      return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
        .map((r) => r.detail)
        .filter((d) => /^(SEARCH|SCAN) /.test(d));
    },
    async close() {
      db.close();
    },
  };
}

interface PgNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Cond"?: string;
  Plans?: PgNode[];
}

function postgresExplainer(url: string): Explainer {
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect();
  const planNodes = async (sql: string, params: unknown[]): Promise<PgNode[]> => {
    await connected;
    let n = 0;
    const numbered = sql.replace(/\?/g, () => `$${++n}`);
    const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${numbered}`, params);
    const nodes: PgNode[] = [];
    const walk = (node: PgNode) => {
      nodes.push(node);
      for (const child of node.Plans ?? []) walk(child);
    };
    const [explained] = (rows[0] as { "QUERY PLAN": { Plan: PgNode }[] })["QUERY PLAN"];
    if (explained) walk(explained.Plan);
    return nodes;
  };
  return {
    async reads(sql, params) {
      return (await planNodes(sql, params))
        .filter((node) => node["Relation Name"] !== undefined)
        .map(
          (node) => `${node["Node Type"]} ${node["Relation Name"]}: ${node["Index Cond"] ?? ""}`,
        );
    },
    async problems(sql, params, constrains) {
      const nodes = await planNodes(sql, params);
      const orders = nodes.filter((node) => node["Relation Name"] === "sales_orders");
      // A purchase order number is a unique key: sorting its one row costs nothing.
      const unique = constrains.includes("purchase_order_no");
      const problems = nodes
        .filter(
          (node) =>
            (node["Node Type"] === "Sort" && !unique) || node["Node Type"].includes("Seq Scan"),
        )
        .map((node) => `${node["Node Type"]} ${node["Relation Name"] ?? ""}`);
      // The cursor's own lookup is by primary key; the listing's scan is the one on partner_id.
      const listing = orders.find((node) => node["Index Cond"]?.includes("partner_id"));
      if (listing === undefined)
        problems.push(`no index scan on partner_id: ${JSON.stringify(orders)}`);
      for (const column of constrains)
        if (!listing?.["Index Cond"]?.includes(column))
          problems.push(`${column} not in the index range: ${listing?.["Index Cond"]}`);
      return problems;
    },
    async close() {
      await connected;
      await client.end();
    },
  };
}

describe.each(storeKinds)("order listing plans (%s)", (kind: StoreKind) => {
  let dir: string;
  let explainer: Explainer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "list-plans-"));
    const url = await freshDatabaseUrl(kind, dir);
    const store = await openStore(url);
    for (const id of ["p-big", "p-small"])
      await store.createPartner({
        id,
        clientId: `olc_${id}`,
        name: id,
        secretHash: "x",
        secretVersion: 1,
        status: "active",
        createdAt: 0,
        updatedAt: 0,
        previousSecretHash: null,
        previousSecretUntil: null,
      });
    await store.close();
    const seeds = [
      seedOrdersStatement(kind, { partnerId: "p-big", count: 20_000, endAt: END }),
      seedOrdersStatement(kind, { partnerId: "p-small", count: 200, endAt: END }),
    ];
    if (kind === "sqlite") {
      const db = new Database(url.slice("sqlite:".length));
      for (const seed of seeds) db.prepare(seed.sql).run(...seed.params);
      db.close();
      explainer = sqliteExplainer(url.slice("sqlite:".length));
    } else {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      for (const seed of seeds) await client.query(seed.sql, seed.params);
      await client.query("ANALYZE sales_orders");
      await client.end();
      explainer = postgresExplainer(url);
    }
  }, 60_000);

  afterAll(async () => {
    await explainer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const { name, filter, constrains } of FILTERS)
    for (const beforeSeq of CURSORS)
      it(`${name}${beforeSeq === undefined ? "" : ", after a cursor"}: one index range in listing order`, async () => {
        const options =
          beforeSeq === undefined ? { limit: 20, filter } : { limit: 20, beforeSeq, filter };
        // The tenant listing runs this same statement once per partner of the tenant.
        const { sql, params } = partnerOrdersStatement("p-big", options, {
          sqlite: kind === "sqlite",
        });
        expect(await explainer.problems(sql, params, constrains)).toEqual([]);
      });

  /**
   * The tenant listing's search, its window floor and its counts: each reads one bounded range
   * of the partner's listing index (SEARCH_WINDOW or COUNT_CAP + 1 entries), never the table,
   * and the matching runs over that window only.
   */
  const dialect = () => ({ sqlite: kind === "sqlite" });
  const BOUNDED: { name: string; statement: () => Statement; constrains: string[] }[] = [
    {
      name: "search",
      statement: () => searchStatement("p-big", "seed-7", { limit: 20 }, dialect()),
      constrains: [],
    },
    {
      name: "search with a status, after a cursor",
      statement: () =>
        searchStatement(
          "p-big",
          "sku",
          { limit: 20, beforeSeq: 4_000, filter: { status: "accepted" } },
          dialect(),
        ),
      constrains: ["status"],
    },
    {
      name: "search oldest first in a window",
      statement: () =>
        searchStatement(
          "p-big",
          "cust",
          {
            limit: 20,
            oldestFirst: true,
            filter: { createdFrom: END - 200 * DAY, createdTo: END - 100 * DAY },
          },
          dialect(),
        ),
      constrains: ["created_at"],
    },
    {
      name: "search window floor",
      statement: () => windowFloorStatement("p-big", { limit: 20 }, dialect()),
      constrains: [],
    },
    {
      name: "count",
      statement: () => countStatement("p-big", undefined, { limit: 20 }, dialect()),
      constrains: [],
    },
    {
      name: "count of a status",
      statement: () =>
        countStatement(
          "p-big",
          undefined,
          { limit: 20, filter: { status: "received" } },
          dialect(),
        ),
      // PostgreSQL weighs the status index against the time index from its statistics: with 90%
      // of the seed received, the time range filtered to 10,001 rows costs the same.
      constrains: kind === "sqlite" ? ["status"] : [],
    },
    {
      name: "count of a search",
      statement: () => countStatement("p-big", "seed", { limit: 20 }, dialect()),
      constrains: [],
    },
    {
      name: "oldest first, after a cursor",
      statement: () =>
        partnerOrdersStatement(
          "p-big",
          { limit: 20, beforeSeq: 4_000, oldestFirst: true },
          dialect(),
        ),
      constrains: [],
    },
  ];

  /**
   * Staff type an order's number: each partner's lookup is one probe of its number index (or of
   * the primary key, for orders numbered before per-partner numbers), however many orders the
   * partner has. SQLite would push the listing's order into the union and read the partner's
   * whole time range instead, unless the union is materialised first.
   */
  for (const beforeSeq of CURSORS)
    it(`order number${beforeSeq === undefined ? "" : ", after a cursor"}: a probe of the number index`, async () => {
      const options = beforeSeq === undefined ? { limit: 20 } : { limit: 20, beforeSeq };
      const { sql, params } = numberStatement("p-big", 77, options);
      const reads = (await explainer.reads(sql, params)).filter((read) =>
        /sales_orders\b/.test(read),
      );
      expect(reads.filter((read) => /^SCAN|Seq Scan/.test(read))).toEqual([]);
      expect(reads.filter((read) => /partner_seq\s*=/.test(read))).toHaveLength(1);
      // The by-number branch probes (partner_id, partner_seq); nothing else reads the partner's
      // orders by time.
      expect(reads.filter((read) => /created_at/.test(read))).toEqual([]);
    });

  for (const { name, statement, constrains } of BOUNDED)
    it(`${name}: one bounded index range`, async () => {
      const { sql, params } = statement();
      expect(sql).toMatch(/LIMIT (\?|1 OFFSET)/);
      expect(await explainer.problems(sql, params, constrains)).toEqual([]);
    });
});
