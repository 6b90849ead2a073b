/**
 * The event loop while the archive works (issue 26 item 5): the app with the library in its PGlite folder (the
 * corpus imported before it starts, when the real-call corpus is there (bench/language/corpus.ts); else the demo archive alone), one
 * client polling `/api/health` every 100 ms and one SSE client on every live call, first for a quiet baseline, then
 * while three clients run heavy searches (common words, long OR) back to back.
 *
 * Targets: `/api/health` p95 ≤ 100 ms and max ≤ 500 ms while searching, and SSE events still flowing.
 *
 * `npm run bench -- --only eventLoop` (builds the app into .next-bench when needed). `CALLROOM_BENCH_LIBRARY_DIR`: a
 * library folder an earlier run built (the app stopped), copied instead of importing the corpus again.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT, startApp, type RunningApp } from "./lib/app";
import { loadAverage, log, percentile, round, sleep } from "./lib/common";
import { CORPUS } from "./library";

export interface LoopFigures {
  healthP50Ms: number;
  healthP95Ms: number;
  healthMaxMs: number;
  /** When the slowest health answer was asked, ms into the phase (a stall at the start is a first request's cost). */
  healthMaxAtMs: number;
  healthSamples: number;
  sseEvents: number;
  sseMaxGapMs: number;
  searches: number;
  searchesSuperseded: number;
  searchP95Ms: number | null;
}

export interface EventLoopBenchResult {
  library: "corpus and demo" | "demo only";
  baseline: LoopFigures;
  busy: LoopFigures;
  loadAverage: number[];
}

const PHASE_MS = 20_000;
const HEAVY = [
  "revenue",
  "quarter OR growth OR margin",
  "customers OR demand OR pricing OR costs",
  '"we expect"',
];

function importCorpus(dataDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/import.ts", CORPUS],
      { cwd: ROOT, env: { ...process.env, CALLROOM_DATA_DIR: dataDir, DATABASE_URL: "" }, stdio: "inherit" },
    );
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`import exited ${code}`))));
  });
}

async function phase(app: RunningApp, withSearches: boolean): Promise<LoopFigures> {
  const stop = Date.now() + PHASE_MS;
  const health: number[] = [];
  const searches: number[] = [];
  let superseded = 0;
  let events = 0;
  let lastEvent = 0;
  let maxGap = 0;
  const abort = new AbortController();
  const sse = (async () => {
    const response = await fetch(`${app.url}/api/stream?tickers=*`, { signal: abort.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let at: number;
      while ((at = buffered.indexOf("\n\n")) >= 0) {
        const frame = buffered.slice(0, at);
        buffered = buffered.slice(at + 2);
        if (!/^event: sentence$/m.test(frame)) continue;
        const now = Date.now();
        if (lastEvent) maxGap = Math.max(maxGap, now - lastEvent);
        lastEvent = now;
        events += 1;
      }
    }
  })().catch(() => {});
  const phaseStart = performance.now();
  const askedAt: number[] = [];
  const poll = (async () => {
    while (Date.now() < stop) {
      const t0 = performance.now();
      await fetch(`${app.url}/api/health`).then((r) => r.text());
      health.push(performance.now() - t0);
      askedAt.push(t0 - phaseStart);
      await sleep(100);
    }
  })();
  const searchers = withSearches
    ? [0, 1, 2].map(async (n) => {
        for (let i = n; Date.now() < stop; i += 1) {
          const q = HEAVY[i % HEAVY.length]!;
          const t0 = performance.now();
          // The open local dashboard has one user, so one search per user at a time (server/archive/search-gate.ts)
          // runs one of the three while one waits, and answers the one it replaces 429: counted apart.
          const status = await fetch(`${app.url}/api/search?q=${encodeURIComponent(q)}&page=${i % 3}`).then(
            async (r) => (await r.text(), r.status),
          );
          if (status === 429) superseded += 1;
          else searches.push(performance.now() - t0);
        }
      })
    : [];
  await Promise.all([poll, ...searchers]);
  abort.abort();
  await sse;
  return {
    healthP50Ms: round(percentile(health, 50)),
    healthP95Ms: round(percentile(health, 95)),
    healthMaxMs: round(Math.max(...health)),
    healthMaxAtMs: Math.round(askedAt[health.indexOf(Math.max(...health))] ?? 0),
    healthSamples: health.length,
    sseEvents: events,
    sseMaxGapMs: maxGap,
    searches: searches.length,
    searchesSuperseded: superseded,
    searchP95Ms: searches.length ? round(percentile(searches, 95)) : null,
  };
}

export async function runEventLoopBench(): Promise<EventLoopBenchResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "callroom-bench-loop-"));
  const withCorpus = existsSync(CORPUS);
  const reuse = process.env.CALLROOM_BENCH_LIBRARY_DIR;
  try {
    if (reuse) {
      log(`eventLoop: copying the library folder ${reuse}`);
      cpSync(reuse, dataDir, { recursive: true });
    } else if (withCorpus) {
      log("eventLoop: importing the corpus into a fresh PGlite folder (the app stopped)");
      await importCorpus(dataDir);
    } else log(`eventLoop: ${CORPUS} is absent; the demo archive alone`);
    const app = await startApp({ env: { CALLROOM_DATA_DIR: dataDir } });
    try {
      // The demo backfill first: the measurement is of a library at rest, then searched.
      for (let i = 0; i < 600; i += 1) {
        const health = (await (await fetch(`${app.url}/api/health`)).json()) as {
          archive?: { backfill?: { finishedAt?: string | null } };
        };
        if (health.archive?.backfill?.finishedAt) break;
        await sleep(1000);
      }
      const baseline = await phase(app, false);
      log(`eventLoop: baseline ${JSON.stringify(baseline)}`);
      const busy = await phase(app, true);
      log(`eventLoop: busy ${JSON.stringify(busy)}`);
      return {
        library: withCorpus || reuse ? "corpus and demo" : "demo only",
        baseline,
        busy,
        loadAverage: loadAverage(),
      };
    } finally {
      await app.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
