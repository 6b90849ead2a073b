/**
 * `npm run bench`: every benchmark, each bounded in time, loopback only; writes bench/results.json and the figures
 * section of docs/performance.md.
 *
 *   npm run bench                                   # everything (about 10 minutes on 2 cores)
 *   npm run bench -- --only relay,coalescing        # some (relay, coalescing, proxy, cachedAnswers, latency,
 *                                                   # lighthouse, lighthouseDesktop, bundles, insights,
 *                                                   # embeddedHistory, search, alertMatching, alertToast,
 *                                                   # language, library, scaleSim, eventLoop, freshStart,
 *                                                   # hostileUsers)
 *   npm run bench -- --clients 2000 --seconds 5     # a smaller relay run
 *   npm run bench -- --reuse-build                  # benchmark the existing .next-bench build as it is
 *   npm run bench -- --only lighthouse --lighthouse-pages /,/search   # some pages; the others keep their figures
 *
 * Results of benchmarks not run this time are kept from the previous bench/results.json.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DIST_DIR, ROOT, startApp } from "./lib/app";
import { loadAverage, log } from "./lib/common";
import { writePerformanceDoc } from "./lib/report";

const ALL = [
  "relay",
  "coalescing",
  "proxy",
  "cachedAnswers",
  "latency",
  "lighthouse",
  "lighthouseDesktop",
  "bundles",
  "insights",
  "embeddedHistory",
  "search",
  "alertMatching",
  "alertToast",
  "language",
  "library",
  "scaleSim",
  "eventLoop",
  "freshStart",
  "hostileUsers",
] as const;
/** The benchmarks that start their own processes (or none) rather than measure the shared app. */
const STANDALONE: ReadonlySet<BenchName> = new Set([
  "insights",
  "embeddedHistory",
  "search",
  "alertMatching",
  "alertToast",
  "language",
  "library",
  "scaleSim",
  "eventLoop",
  "freshStart",
  "hostileUsers",
]);
type BenchName = (typeof ALL)[number];

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    clients: { type: "string", default: "10000" },
    seconds: { type: "string", default: "10" },
    "reuse-build": { type: "boolean", default: false },
    // Mobile Lighthouse runs per page (default 3, the median reported): fewer when the machine's time is short.
    "lighthouse-runs": { type: "string" },
    // Mobile Lighthouse on some pages only (routes as bench/lib/first-load.ts names them, comma-separated): the
    // other pages keep their previous figures in bench/results.json.
    "lighthouse-pages": { type: "string" },
  },
});
const only = new Set<BenchName>(
  values.only ? (values.only.split(",").map((s) => s.trim()) as BenchName[]) : [...ALL],
);
for (const name of only)
  if (!ALL.includes(name)) throw new Error(`unknown benchmark ${name}; use ${ALL.join(", ")}`);

const resultsPath = join(ROOT, "bench/results.json");
const results: Record<string, unknown> = existsSync(resultsPath)
  ? (JSON.parse(readFileSync(resultsPath, "utf8")) as Record<string, unknown>)
  : {};

const save = async () => {
  results.machine = {
    recordedAt: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    build: buildInfo,
  };
  writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
  await writePerformanceDoc(results);
};

const buildInfo = (() => {
  // BUILD_ID is touched by --reuse-build; the build manifest keeps the build's own time.
  const buildId = join(ROOT, DIST_DIR, "build-manifest.json");
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], {
    cwd: ROOT,
    encoding: "utf8",
  }).stdout.trim();
  return { gitHead: head, builtAt: existsSync(buildId) ? statSync(buildId).mtime.toISOString() : null };
})();
log(`load average at start: ${loadAverage().join(", ")}`);
let failed = false;
const stage = async (name: BenchName, fn: () => Promise<unknown>) => {
  if (!only.has(name)) return;
  log(`${name}: start (load ${loadAverage().join(", ")})`);
  try {
    results[name] = { ...((await fn()) as object), recordedAt: new Date().toISOString() };
    log(`${name}: done`);
  } catch (error) {
    failed = true;
    log(`${name}: FAILED: ${error instanceof Error ? error.stack : String(error)}`);
    results[name] = {
      error: error instanceof Error ? error.message : String(error),
      recordedAt: new Date().toISOString(),
    };
  }
  await save();
};

const needsApp = [...only].some((name) => !STANDALONE.has(name));
const app = needsApp ? await startApp({ reuseBuild: values["reuse-build"] }) : null;
try {
  await stage("insights", async () => (await import("./insights")).runInsightsBench());
  // Real calls from the corpus folder (docs/insights.md, "Evaluation on real calls") against hand-written labels;
  // skipped when the corpus is absent.
  await stage("language", async () => (await import("./language")).runLanguageBench());
  await stage("alertMatching", async () => (await import("./alert-matching")).runAlertMatchingBench());
  await stage("coalescing", async () => (await import("./proxy")).runCoalescingBench(app!));
  // Before proxy: its uncached run can leave the upstream's circuit breaker open, and a stored answer is only
  // renewed from a fresh upstream copy.
  await stage("cachedAnswers", async () => (await import("./cached-answers")).runCachedAnswersBench(app!));
  await stage("proxy", async () => (await import("./proxy")).runProxyBench(app!));
  await stage("latency", async () => (await import("./latency")).runLatencyBench(app!));
  await stage("bundles", async () => (await import("./lighthouse")).runBundlesBench(app!));
  // The embedded service alone (its own process): a year of calls, listing, on-demand builds, memory.
  await stage("embeddedHistory", async () => (await import("./embedded-history")).runEmbeddedHistoryBench());
  // The transcript archive (its own processes: embedded service, PGlite, a PostgreSQL server): backfill, searches.
  await stage("search", async () => (await import("./search")).runSearchBench());
  // The demo archive and the real corpus imported beside it, on both drivers (skipped without the corpus).
  await stage("library", async () => (await import("./library")).runLibraryBench());
  // 5 M synthetic sentences on PostgreSQL: what docs/scale.md extrapolates from.
  await stage("scaleSim", async () => (await import("./scale-sim")).runScaleSimBench());
  // A fresh npm start on an empty folder: the backfill's time and the 429s it caused (none is the target).
  await stage("freshStart", async () =>
    (await import("./fresh-start")).runFreshStartBench({ reuseBuild: values["reuse-build"] }),
  );
  // The event loop while three clients search the library: /api/health and SSE beside a quiet baseline.
  await stage("eventLoop", async () => (await import("./event-loop")).runEventLoopBench());
  await stage("lighthouse", async () => {
    const { runLighthouseBench, mergeLighthousePages } = await import("./lighthouse");
    const pages = values["lighthouse-pages"]?.split(",").map((p) => p.trim());
    const run = await runLighthouseBench(app!, {
      runs: values["lighthouse-runs"] ? Number(values["lighthouse-runs"]) : undefined,
      pages,
    });
    return pages ? mergeLighthousePages(results.lighthouse, run) : run;
  });
  // For information (the target is the mobile run): analysts work at desktops, where this is what they get.
  await stage("lighthouseDesktop", async () =>
    (await import("./lighthouse")).runLighthouseBench(app!, { preset: "desktop" }),
  );
  // The heaviest last: 10,000 sockets in and out of the app leave it in no state for latency figures.
  await stage("relay", async () =>
    (await import("./relay")).runRelayBench(app!, {
      clients: Number(values.clients),
      publishSeconds: Number(values.seconds),
    }),
  );
} finally {
  await app?.stop();
}
// Its own app, on its own database seeded with 10,000 alert rules, once the shared app no longer takes CPU time.
await stage("alertToast", async () =>
  (await import("./alert-toast")).runAlertToastBench({ reuseBuild: values["reuse-build"] }),
);
// Issue 27's attacks (push, trickling and bursting webhooks) on an app of their own, with nothing else running.
await stage("hostileUsers", async () =>
  (await import("./hostile-users")).runHostileUsersBench({ reuseBuild: values["reuse-build"] }),
);
log(`wrote bench/results.json and docs/performance.md (load average now ${loadAverage().join(", ")})`);
process.exit(failed ? 1 : 0);
