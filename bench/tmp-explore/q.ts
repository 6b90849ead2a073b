import { searchQuerySchema } from "../../lib/schemas/search";
import { searchArchive } from "../../server/archive/search";
import { createDatabase, queryRows } from "../../server/db/database";
import { sql } from "drizzle-orm";
const log = { info() {}, warn() {}, error() {} };
const db = await createDatabase({
  dataDir: "/tmp/imp-full",
  logger: log,
  workerScript: "/work/wt/archive/server/db/pglite-worker.mjs",
  migrationsFolder: "/work/wt/archive/drizzle",
});
const qs: Record<string, string>[] = [
  { q: "semiconductor" },
  { q: "hurricane" },
  { q: "cybersecurity" },
  { q: "divestiture" },
  { q: "franchisees" },
  { q: '"supply chain"' },
  { q: '"free cash flow"' },
  { q: '"gross margin"' },
  { q: '"share repurchase"' },
  { q: '"raw material costs"' },
  { q: "tariffs OR duties" },
  { q: "hurricane OR wildfire" },
  { q: "layoffs OR restructuring" },
  { q: "guidance", tickers: "AAP" },
  { q: "inflation", quarter: "2022-Q1" },
  { q: "pricing", tickers: "AAP,AAN", quarter: "2021-Q1" },
  { q: "revenue" },
  { q: "quarter" },
];
for (const pass of [0, 1]) {
  for (const raw of qs) {
    const t = performance.now();
    const r = await searchArchive(db.db, searchQuerySchema.parse(raw));
    const ms = performance.now() - t;
    if (pass === 1)
      console.log(
        `${ms.toFixed(1).padStart(7)} ms  calls=${r.totalCalls} hits=${r.totalHits}  ${JSON.stringify(raw)}`,
      );
  }
}
const c = await queryRows(
  db.db,
  sql`SELECT pg_size_pretty(pg_relation_size('archive_segments')) seg, pg_size_pretty(pg_relation_size('archive_segments_search_idx')) gin, pg_size_pretty(pg_total_relation_size('archive_segments')) total`,
);
console.log(c);
await db.close();
