/**
 * Page weight and speed of every dashboard page, on the production build.
 *
 * - bundles: first-load JS per route (bench/lib/first-load.ts; e2e/first-load.spec.ts holds every page to the same
 *   budget).
 * - lighthouse: Lighthouse's performance score (default config: mobile emulation, simulated throttling) for each
 *   page, in Debian's Chromium, one run per page. CPU contention on a shared machine lengthens main-thread tasks
 *   and so lowers the score (Total Blocking Time); the load average is recorded beside it.
 */
import type { RunningApp } from "./lib/app";
import { loadAverage, log, withTimeout } from "./lib/common";
import { FIRST_LOAD_BUDGET_KB, firstLoadMeter, measuredPages, type FirstLoad } from "./lib/first-load";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./latency";

export async function runBundlesBench(app: RunningApp) {
  return withTimeout(
    (async () => {
      const load = loadAverage();
      const routes: Record<string, FirstLoad> = {};
      const measure = firstLoadMeter(app.url);
      for (const [route, path] of Object.entries(await measuredPages(app.url)))
        routes[route] = await measure(path);
      const worst = Math.max(...Object.values(routes).map((r) => r.firstLoadKbGzip));
      const result = {
        routes,
        maxKbGzip: worst,
        target: FIRST_LOAD_BUDGET_KB,
        met: worst <= FIRST_LOAD_BUDGET_KB,
        loadAverage: load,
      };
      log(`bundles: ${JSON.stringify(result)}`);
      return result;
    })(),
    120_000,
    "the bundles benchmark",
  );
}

interface LighthousePage {
  score?: number;
  error?: string;
  metrics?: Record<string, number | undefined>;
  diagnostics?: ReturnType<typeof diagnostics>;
  loadAverage: [number, number, number];
  /** Every counted run's score, when several were taken (the fields above are the median run's). */
  runs?: number[];
}

interface AuditLike {
  details?: { items?: Record<string, unknown>[] };
}

/** What explains a low score: the LCP element, the elements that shifted, the scripts that kept the CPU busy. */
function diagnostics(lhr: { audits: Record<string, AuditLike | undefined> } | undefined) {
  const items = (id: string) => lhr?.audits[id]?.details?.items ?? [];
  const snippet = (item: Record<string, unknown>) => {
    const node = (item.node ?? (item.items as Record<string, unknown>[] | undefined)?.[0]?.node) as
      { snippet?: string; selector?: string } | undefined;
    return (node?.selector ?? node?.snippet ?? "").slice(0, 120);
  };
  return {
    lcpElement: items("largest-contentful-paint-element").map(snippet).find(Boolean) ?? null,
    layoutShifts: items("layout-shifts")
      .slice(0, 3)
      .map((i) => ({ element: snippet(i), score: Number(i.score ?? 0) })),
    bootup: items("bootup-time")
      .slice(0, 4)
      .map((i) => ({
        url: String(i.url ?? "").replace(/^https?:\/\/[^/]+/, ""),
        ms: Math.round(Number(i.total ?? 0)),
      })),
  };
}

/**
 * Lighthouse's own guidance on variability: one run is one sample; report the median of several. Each page is run
 * `runs` times (mobile 3, desktop 1) and the run with the median score is reported, with every run's score kept. A
 * run Lighthouse itself fails (a trace it could not record, e.g. NO_NAVSTART) is retried, at most twice per page,
 * and does not count as a sample.
 */
export async function runLighthouseBench(
  app: RunningApp,
  options: { preset?: "desktop"; runs?: number; pages?: readonly string[] } = {},
) {
  const runs = options.runs ?? (options.preset === "desktop" ? 1 : 3);
  return withTimeout(
    (async () => {
      const { default: lighthouse } = await import("lighthouse");
      const chromeLauncher = await import("chrome-launcher");
      const chrome = await chromeLauncher.launch({
        chromePath: CHROMIUM_PATH,
        chromeFlags: CHROMIUM_ARGS.map((a) => (a === "--headless" ? "--headless=new" : a)),
      });
      const config =
        options.preset === "desktop"
          ? (await import("lighthouse/core/config/desktop-config.js")).default
          : undefined;
      const runOnce = async (path: string): Promise<LighthousePage> => {
        const load = loadAverage();
        try {
          const runner = await lighthouse(
            `${app.url}${path}`,
            { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] },
            config,
          );
          const lhr = runner?.lhr;
          const score = lhr?.categories.performance?.score;
          const metric = (id: string) => {
            const v = lhr?.audits[id]?.numericValue;
            return v === undefined ? undefined : Math.round(v);
          };
          // A null score means a metric could not be computed: keep Lighthouse's reason.
          const failedAudit = Object.values(lhr?.audits ?? {}).find(
            (a) => a.scoreDisplayMode === "error" && a.errorMessage,
          );
          const reason = lhr?.runtimeError?.message ?? failedAudit?.errorMessage;
          return {
            ...(score === null || score === undefined ? { error: reason ?? "no score" } : {}),
            score: score === null || score === undefined ? undefined : Math.round(score * 100),
            metrics: {
              fcpMs: metric("first-contentful-paint"),
              lcpMs: metric("largest-contentful-paint"),
              tbtMs: metric("total-blocking-time"),
              cls: lhr?.audits["cumulative-layout-shift"]?.numericValue,
              speedIndexMs: metric("speed-index"),
            },
            diagnostics: diagnostics(lhr as unknown as Parameters<typeof diagnostics>[0]),
            loadAverage: load,
          };
        } catch (error) {
          return { error: error instanceof Error ? error.message : String(error), loadAverage: load };
        }
      };
      const results: Record<string, LighthousePage> = {};
      try {
        const all = await measuredPages(app.url);
        for (const route of options.pages ?? [])
          if (!(route in all)) throw new Error(`unknown page ${route}; use ${Object.keys(all).join(", ")}`);
        const chosen = Object.entries(all).filter(
          ([route]) => !options.pages || options.pages.includes(route),
        );
        for (const [route, path] of chosen) {
          const samples: LighthousePage[] = [];
          const failures: LighthousePage[] = [];
          while (samples.length < runs && failures.length < 3) {
            const result = await runOnce(path);
            if (result.score === undefined) failures.push(result);
            else samples.push(result);
            log(`lighthouse ${route} (run ${samples.length + failures.length}): ${JSON.stringify(result)}`);
          }
          if (samples.length === 0) {
            results[route] = failures.at(-1)!;
            continue;
          }
          const sorted = [...samples].sort((a, b) => a.score! - b.score!);
          results[route] = {
            ...sorted[Math.floor((sorted.length - 1) / 2)]!,
            runs: samples.map((r) => r.score!),
          };
        }
      } finally {
        chrome.kill();
      }
      return lighthouseSummary(options.preset ?? "mobile (default)", runs, results);
    })(),
    30 * 60_000,
    "the lighthouse benchmark",
  );
}

type LighthouseResult = ReturnType<typeof lighthouseSummary>;

function lighthouseSummary(preset: string, runsPerPage: number, pages: Record<string, LighthousePage>) {
  const scores = Object.values(pages).flatMap((r) => (r.score === undefined ? [] : [r.score]));
  return {
    preset,
    runsPerPage,
    pages,
    minScore: scores.length ? Math.min(...scores) : null,
    target: 95,
    met: scores.length === Object.keys(pages).length && Math.min(...scores) >= 95,
  };
}

/**
 * A run of some pages (`--lighthouse-pages`) over the previous results: the pages run replace theirs, the others
 * keep their figures (each with its own load average), and the summary is taken over all of them.
 */
export function mergeLighthousePages(previous: unknown, run: LighthouseResult): LighthouseResult {
  const before = (previous as Partial<LighthouseResult> | undefined)?.pages ?? {};
  return lighthouseSummary(run.preset, run.runsPerPage, { ...before, ...run.pages });
}
