/**
 * First-load JS of a page, as the bundles benchmark (bench/lighthouse.ts) and the budget spec (e2e/first-load.spec.ts)
 * measure it: every `/_next/static/…js` the page's server-rendered HTML loads (script tags and script preloads),
 * each gzipped here at the default level, summed, in kB (what `next build` used to print as "First Load JS"; Next
 * 16's build output no longer does). Lazily imported chunks and `noModule` polyfills (never fetched by the browsers
 * we support) are not first-load.
 */
import { gzipSync } from "node:zlib";
import { getJson } from "./common";

/** The budget of issue 28 item 8 for every page (docs/performance.md). */
export const FIRST_LOAD_BUDGET_KB = 180;

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * The embedded service builds its year of history at start and, on a loaded machine, may answer the first reads late
 * (504), after which the upstream's circuit breaker answers 503 for a while: ask again, up to two minutes, rather than
 * lose the run.
 */
async function getJsonPatiently<T>(url: string): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      return await getJson<T>(url);
    } catch (error) {
      if (Date.now() > deadline || !/answered 50[234]/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }
  }
}

/**
 * The pages of docs/interfaces.md §5 and the analyst's day (issue 28: `/`, `/search`, `/alerts`, `/watchlists`), with
 * real ids from the running app's market data.
 */
export async function measuredPages(baseUrl: string): Promise<Record<string, string>> {
  const earnings = await getJsonPatiently<{ data: { ticker: string }[] }>(
    `${baseUrl}/api/calendar/earnings?pageSize=50`,
  );
  const tickers = [...new Set(earnings.data.map((r) => r.ticker))];
  const calls = await getJsonPatiently<{ data: { callId: string; status: string }[] }>(
    `${baseUrl}/api/calls?pageSize=50`,
  );
  const done = calls.data.find((c) => c.status === "enriched") ?? calls.data[0];
  const out: Record<string, string> = {
    "/": "/",
    "/live": "/live",
    "/calls": "/calls",
    "/calendar/earnings": "/calendar/earnings",
    "/calendar/ma": "/calendar/ma",
    "/search": tickers[0] ? `/search?q=revenue&tickers=${tickers[0]}` : "/search?q=revenue",
    "/alerts": "/alerts",
    "/watchlists": "/watchlists",
  };
  if (done) out["/calls/[callId]"] = `/calls/${done.callId}`;
  if (tickers[0]) out["/companies/[symbol]"] = `/companies/${tickers[0]}`;
  if (tickers.length >= 3) out["/compare"] = `/compare?symbols=${tickers.slice(0, 3).join(",")}`;
  return out;
}

export interface FirstLoad {
  firstLoadKbGzip: number;
  rawKb: number;
  scripts: number;
  largest: { file: string; kbGzip: number }[];
}

/** Measures pages one after another; a script shared by several is fetched and gzipped once. */
export function firstLoadMeter(baseUrl: string): (path: string) => Promise<FirstLoad> {
  const sizes = new Map<string, { gz: number; raw: number }>();
  return async (path) => {
    const html = await (await fetch(`${baseUrl}${path}`)).text();
    const srcs = new Set<string>();
    // Script tags and script preloads; `noModule` polyfills are skipped (modern browsers never fetch them).
    for (const tag of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
      if (/\bnomodule\b/i.test(tag[0])) continue;
      const src = /(?:src|href)="(\/_next\/static\/[^"]+?\.js)"/.exec(tag[0])?.[1];
      if (src) srcs.add(src);
    }
    let gz = 0;
    let raw = 0;
    for (const src of srcs) {
      let size = sizes.get(src);
      if (!size) {
        const body = Buffer.from(await (await fetch(`${baseUrl}${src}`)).arrayBuffer());
        size = { gz: gzipSync(body).length, raw: body.length };
        sizes.set(src, size);
      }
      gz += size.gz;
      raw += size.raw;
    }
    const largest = [...srcs]
      .map((src) => ({ file: src.split("/").pop()!, kbGzip: round(sizes.get(src)!.gz / 1024) }))
      .sort((a, b) => b.kbGzip - a.kbGzip)
      .slice(0, 5);
    return { firstLoadKbGzip: round(gz / 1024), rawKb: round(raw / 1024), scripts: srcs.size, largest };
  };
}
