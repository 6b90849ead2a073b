/**
 * The archive at library scale (issue 26 items 4 and 5): the demo archive backfilled from a fresh embedded service,
 * then the real corpus (bench/language/corpus.ts: 1,271 calls, read at run time; skipped plainly when absent)
 * imported with `npm run import`, on PGlite and on a PostgreSQL server started for the run. Then a mixed set of 200
 * searches (rare words, quoted phrases, OR, ticker and quarter filters) timed one after the other, and on PGlite by 4
 * clients at once; the answers of both drivers compared query by query; a phrase of each of 50 imported sentences
 * searched with its ticker must find its call; every facet of a few queries checked against its filter.
 *
 * Targets: import ≤ 240 s on PGlite and ≤ 180 s on PostgreSQL; search p95 ≤ 50 ms on PGlite (≤ 150 ms with 4
 * clients) and ≤ 25 ms on PostgreSQL. On a shared machine the import's wall time follows the load: its CPU time
 * (the import process, its PGlite worker included) is printed beside it.
 *
 * `npm run bench -- --only library`, or alone: `node --conditions=react-server --import tsx bench/library.ts`
 * (`--no-postgres`: PGlite only; the searches alone, on a library an earlier run built: `--reuse-dir <a copy of a
 * PGlite library folder>` and/or `--reuse-url <a PostgreSQL database holding the same archive>`).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CORPUS_DIR } from "./language/corpus";
import { archiveModules } from "./lib/archive-modules";
import { runChildBench } from "./lib/child-bench";
import { percentile, round, seededRandom } from "./lib/common";

const root = path.resolve(import.meta.dirname, "..");
/** The real-call corpus folder (bench/language/corpus.ts; docs/insights.md, "Evaluation on real calls"). */
export const CORPUS = CORPUS_DIR;

export interface LibraryDriverFigures {
  backfillMs: number;
  importWallMs: number;
  importCpuMs: number | null;
  importedCalls: number;
  calls: number;
  sentences: number;
  searchP50Ms: number;
  searchP95Ms: number;
  searchP99Ms: number;
  p95ByKind: Record<string, number>;
  /** CPU time of the search (this process: the PGlite worker, or node-postgres's side only), less moved by load. */
  searchCpuP50Ms: number;
  searchCpuP95Ms: number;
  cpuP95ByKind: Record<string, number>;
  /** PGlite only: the same searches from 4 clients at once. */
  concurrentP95Ms?: number;
  /** Common words ("revenue", "quarter"), outside the mix: p50 of 5 runs each. */
  commonWordP50Ms: number;
  phrasesFound: number;
  phrasesTried: number;
  facetMismatches: number;
}

export type LibraryBenchResult =
  | { skipped: string }
  | {
      queries: number;
      /** An error only when the bench searched a PostgreSQL library alone (`--reuse-url`). */
      pglite: LibraryDriverFigures | { error: string };
      postgres: LibraryDriverFigures | { error: string };
      /** Queries whose answers differ between the drivers (0 = identical). */
      driverMismatches: number | null;
      loadAverage: number[];
    };

export async function runLibraryBench(): Promise<LibraryBenchResult> {
  if (!existsSync(CORPUS)) {
    console.error(`library: ${CORPUS} is absent; skipped`);
    return { skipped: `${CORPUS} is absent` };
  }
  return runChildBench<LibraryBenchResult>("bench/library.ts", "library bench");
}

/* ------------------------------------------------------------------ the child */

/** Words of our own choosing, from rare in earnings calls to medium; the phrases come from the archive at run time. */
const RARE = [
  "semiconductor",
  "hurricane",
  "cybersecurity",
  "divestiture",
  "franchisees",
  "biosimilar",
  "wildfire",
  "refinancing",
  "tariffs",
  "layoffs",
  "ransomware",
  "reshoring",
  "antitrust",
  "vaccine",
  "drought",
  "lithium",
];
const MEDIUM = ["inflation", "pricing", "guidance", "backlog", "headwinds", "dividend", "supply", "margin"];

interface BenchQuery {
  kind: "rare" | "phrase" | "or" | "ticker" | "quarter";
  raw: Record<string, string>;
}

async function runImport(
  env: Record<string, string>,
): Promise<{ wallMs: number; cpuMs: number | null; ok: number }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/import.ts", "--json", CORPUS],
    { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const wallMs = performance.now() - started;
  const lines = out.trim().split("\n").filter(Boolean);
  const ok = lines.filter((l) => !l.includes('"error"')).length;
  if (code !== 0) console.error(`library: import exited ${code}: ${err.split("\n").slice(-3).join(" | ")}`);
  const cpu = /CPU ([\d.]+) s/.exec(err);
  return { wallMs, cpuMs: cpu ? Number(cpu[1]) * 1000 : null, ok };
}

async function child(
  withPostgres: boolean,
  reuseDir: string | null,
  reuseUrl: string | null,
): Promise<LibraryBenchResult> {
  if (!reuseDir && !reuseUrl && !existsSync(CORPUS))
    return { skipped: `${CORPUS} is absent (CALLROOM_CORPUS_DIR)` };
  const {
    searchQuerySchema,
    createArchive,
    searchArchive,
    createDatabase,
    queryRows,
    MemoryBus,
    sql,
    startTestPostgres,
    archiveSource,
  } = await archiveModules();
  const { startEmbedded } = await import("./search");
  type Database = Awaited<ReturnType<typeof createDatabase>>;

  const embedded = await startEmbedded();
  const { log, source } = archiveSource(embedded.url, "warn");
  let queries: BenchQuery[] | null = null;
  const answers = new Map<string, string[]>();

  async function backfill(database: Database): Promise<number> {
    const handle = { driver: database.driver, get: async () => database, close: async () => {} };
    const archive = createArchive({ database: handle, log, source, live: new MemoryBus() });
    const started = performance.now();
    archive.start();
    while (archive.progress().state !== "live") {
      const p = archive.progress();
      if (p.state === "error") throw new Error(p.lastError ?? "backfill failed");
      await new Promise((r) => setTimeout(r, 100));
    }
    await archive.stop();
    return performance.now() - started;
  }

  async function buildQueries(database: Database): Promise<BenchQuery[]> {
    const symbols = (
      await queryRows<{ symbol: string }>(
        database.db,
        sql`SELECT DISTINCT symbol FROM archive_calls ORDER BY symbol`,
      )
    ).map((r) => r.symbol);
    const quarters = (
      await queryRows<{ quarter: string }>(
        database.db,
        sql`SELECT DISTINCT quarter FROM archive_calls WHERE quarter IS NOT NULL ORDER BY quarter`,
      )
    ).map((r) => r.quarter);
    // Sentences read at run time for phrases (never stored): a deterministic sample across the archive.
    const sample = await queryRows<{ text: string; symbol: string }>(
      database.db,
      sql`SELECT text, symbol FROM archive_segments ORDER BY md5(call_id || ':' || sequence) LIMIT 400`,
    );
    const rand = seededRandom(20261127);
    const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
    const out: BenchQuery[] = [];
    for (let i = 0; out.length < 200; i += 1) {
      switch (i % 5) {
        case 0:
          out.push({ kind: "rare", raw: { q: pick(RARE) } });
          break;
        case 1: {
          const s = pick(sample);
          const tokens = s.text
            .replace(/[^A-Za-z ]/g, " ")
            .split(/\s+/)
            .filter((t) => t.length > 3);
          if (tokens.length < 3) continue;
          const at = Math.floor(rand() * (tokens.length - 2));
          out.push({ kind: "phrase", raw: { q: `"${tokens.slice(at, at + 3).join(" ")}"` } });
          break;
        }
        case 2:
          out.push({ kind: "or", raw: { q: `${pick(RARE)} OR ${pick(RARE)} OR ${pick(MEDIUM)}` } });
          break;
        case 3:
          out.push({
            kind: "ticker",
            raw: { q: pick(MEDIUM), tickers: [pick(symbols), pick(symbols)].join(",") },
          });
          break;
        default:
          out.push({ kind: "quarter", raw: { q: pick(MEDIUM), quarter: pick(quarters) } });
      }
    }
    return out;
  }

  async function measure(
    name: string,
    database: Database,
    backfillMs: number,
    imported: Awaited<ReturnType<typeof runImport>>,
  ): Promise<LibraryDriverFigures> {
    queries ??= await buildQueries(database);
    const parse = (raw: Record<string, string>) => searchQuerySchema.parse(raw);
    for (const q of queries.slice(0, 30)) await searchArchive(database.db, parse(q.raw));
    const times: number[] = [];
    const byKind = new Map<string, number[]>();
    const cpu: number[] = [];
    const cpuByKind = new Map<string, number[]>();
    const mine: string[] = [];
    for (const q of queries) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const result = await searchArchive(database.db, parse(q.raw));
      const ms = performance.now() - t0;
      const c1 = process.cpuUsage(c0);
      const cpuMs = (c1.user + c1.system) / 1000;
      times.push(ms);
      cpu.push(cpuMs);
      byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), ms]);
      cpuByKind.set(q.kind, [...(cpuByKind.get(q.kind) ?? []), cpuMs]);
      // The archive's size apart: each driver backfilled the demo from a live service, a call more or less.
      mine.push(JSON.stringify({ ...result, archivedCalls: undefined }));
    }
    answers.set(name, mine);
    let concurrentP95Ms: number | undefined;
    if (database.driver === "pglite") {
      // Four clients at once, each the whole set from a different point.
      const all: number[] = [];
      await Promise.all(
        [0, 50, 100, 150].map(async (offset) => {
          for (let i = 0; i < queries!.length; i += 1) {
            const q = queries![(i + offset) % queries!.length]!;
            const t0 = performance.now();
            await searchArchive(database.db, parse(q.raw));
            all.push(performance.now() - t0);
          }
        }),
      );
      concurrentP95Ms = round(percentile(all, 95));
    }
    const common: number[] = [];
    for (const q of ["revenue", "quarter"]) {
      for (let i = 0; i < 5; i += 1) {
        const t0 = performance.now();
        await searchArchive(database.db, parse({ q }));
        common.push(performance.now() - t0);
      }
    }
    // A phrase of each of 50 imported sentences, with its ticker, finds its call.
    const probes = await queryRows<{ call_id: string; symbol: string; text: string }>(
      database.db,
      sql`SELECT call_id, symbol, text FROM archive_segments
          WHERE call_id LIKE 'imp-%' AND length(text) > 60
          ORDER BY md5(call_id || '/' || sequence) LIMIT 50`,
    );
    let found = 0;
    let tried = 0;
    for (const p of probes) {
      const words = p.text.split(/\s+/).slice(2, 7).join(" ").replace(/"/g, "");
      // Five words that are all stop words ("on -- as you were") are answered with a notice, not searched: not tried.
      const [indexable] = await queryRows<{ n: number }>(
        database.db,
        sql`SELECT numnode(websearch_to_tsquery('english', ${`"${words}"`}))::int AS n`,
      );
      if (!indexable?.n) continue;
      tried += 1;
      const result = await searchArchive(database.db, parse({ q: `"${words}"`, tickers: p.symbol }));
      if (result.calls.some((c) => c.callId === p.call_id)) found += 1;
    }
    let facetMismatches = 0;
    for (const q of ["inflation", "pricing", '"supply chain"']) {
      const base = await searchArchive(database.db, parse({ q }));
      for (const f of base.facets.tickers.slice(0, 3)) {
        const r = await searchArchive(database.db, parse({ q, tickers: f.value }));
        if (r.totalCalls !== f.calls) facetMismatches += 1;
      }
      for (const f of base.facets.quarters.slice(0, 3)) {
        const r = await searchArchive(database.db, parse({ q, quarter: f.value }));
        if (r.totalCalls !== f.calls) facetMismatches += 1;
      }
    }
    const [size] = await queryRows<{ calls: number; sentences: number; imported: number }>(
      database.db,
      sql`SELECT count(*)::int AS calls, coalesce(sum(segment_count), 0)::int AS sentences,
                 count(*) FILTER (WHERE source = 'import')::int AS imported FROM archive_calls`,
    );
    return {
      backfillMs: Math.round(backfillMs),
      importWallMs: Math.round(imported.wallMs),
      importCpuMs: imported.cpuMs === null ? null : Math.round(imported.cpuMs),
      importedCalls: Number(size?.imported ?? 0),
      calls: Number(size?.calls ?? 0),
      sentences: Number(size?.sentences ?? 0),
      searchP50Ms: round(percentile(times, 50)),
      searchP95Ms: round(percentile(times, 95)),
      searchP99Ms: round(percentile(times, 99)),
      p95ByKind: Object.fromEntries([...byKind].map(([k, v]) => [k, round(percentile(v, 95))])),
      searchCpuP50Ms: round(percentile(cpu, 50)),
      searchCpuP95Ms: round(percentile(cpu, 95)),
      cpuP95ByKind: Object.fromEntries([...cpuByKind].map(([k, v]) => [k, round(percentile(v, 95))])),
      ...(concurrentP95Ms === undefined ? {} : { concurrentP95Ms }),
      commonWordP50Ms: round(percentile(common, 50)),
      phrasesFound: found,
      phrasesTried: tried,
      facetMismatches,
    };
  }

  const dirs: string[] = [];
  if (reuseDir || reuseUrl) {
    // Searches only, on a library built by an earlier run (a copy of a PGlite folder: PGlite writes to it; or a
    // PostgreSQL database holding the same archive): for trying a change to the search without the half hour of
    // backfill and import. Both given: the answers are compared too.
    try {
      const none = { wallMs: NaN, cpuMs: null, ok: 0 };
      const skipped = { error: "skipped (--reuse-dir / --reuse-url)" };
      let pglite: LibraryDriverFigures | { error: string } = skipped;
      let postgres: LibraryDriverFigures | { error: string } = skipped;
      if (reuseDir) {
        const db = await createDatabase({ dataDir: reuseDir, logger: log, purpose: "bench" });
        pglite = await measure("pglite", db, NaN, none);
        await db.close();
        console.error(`library: PGlite ${JSON.stringify(pglite)}`);
      }
      if (reuseUrl) {
        const db = await createDatabase({ url: reuseUrl, dataDir: "", logger: log });
        postgres = await measure("postgres", db, NaN, none);
        await db.close();
        console.error(`library: PostgreSQL ${JSON.stringify(postgres)}`);
      }
      const [a, b] = [answers.get("pglite"), answers.get("postgres")];
      return {
        queries: (queries as BenchQuery[] | null)?.length ?? 0,
        pglite,
        postgres,
        driverMismatches: a && b ? a.filter((x, i) => x !== b[i]).length : null,
        loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
      };
    } finally {
      embedded.child.kill("SIGTERM");
    }
  }
  try {
    const dir = mkdtempSync(path.join(tmpdir(), "callroom-bench-library-"));
    dirs.push(dir);
    let db = await createDatabase({ dataDir: dir, logger: log, purpose: "bench" });
    const pgliteBackfill = await backfill(db);
    await db.close();
    console.error("library: PGlite backfilled; importing the corpus");
    const pgliteImport = await runImport({ CALLROOM_DATA_DIR: dir, DATABASE_URL: "" });
    db = await createDatabase({ dataDir: dir, logger: log, purpose: "bench" });
    const pglite = await measure("pglite", db, pgliteBackfill, pgliteImport);
    await db.close();
    console.error(`library: PGlite ${JSON.stringify(pglite)}`);
    let postgres: LibraryDriverFigures | { error: string } = { error: "skipped (--no-postgres)" };
    if (withPostgres) {
      const server = await startTestPostgres();
      try {
        const pg = await createDatabase({ url: server.url, dataDir: "", logger: log });
        const backfillMs = await backfill(pg);
        console.error("library: PostgreSQL backfilled; importing the corpus");
        const imported = await runImport({ DATABASE_URL: server.url });
        postgres = await measure("postgres", pg, backfillMs, imported);
        await pg.close();
      } catch (error) {
        postgres = { error: error instanceof Error ? error.message : String(error) };
      } finally {
        await server.stop();
      }
      console.error(`library: PostgreSQL ${JSON.stringify(postgres)}`);
    }
    const [a, b] = [answers.get("pglite"), answers.get("postgres")];
    return {
      queries: (queries as BenchQuery[] | null)?.length ?? 0,
      pglite,
      postgres,
      driverMismatches: a && b ? a.filter((x, i) => x !== b[i]).length : null,
      loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    };
  } finally {
    embedded.child.kill("SIGTERM");
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf("--reuse-dir");
  const reuseDir = at > 0 ? path.resolve(process.argv[at + 1] ?? "") : null;
  const urlAt = process.argv.indexOf("--reuse-url");
  const reuseUrl = urlAt > 0 ? (process.argv[urlAt + 1] ?? null) : null;
  const result = await child(!process.argv.includes("--no-postgres"), reuseDir, reuseUrl);
  console.log(JSON.stringify(result));
  process.exit(0);
}
