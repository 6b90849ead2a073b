import { expect, test } from "@playwright/test";
import { FIRST_LOAD_BUDGET_KB, firstLoadMeter, measuredPages } from "../bench/lib/first-load";

/**
 * Every page's first-load JS within the budget (issue 28 item 8, docs/performance.md): measured on the production
 * build the specs run against, as the bundles benchmark measures it. Deterministic for a given build, so it fails
 * the moment a change puts a page back over, not on the next benchmark run.
 */
test("every page loads at most 180 kB of JavaScript (gzip) before it is interactive", async ({ baseURL }) => {
  test.setTimeout(180_000);
  const pages = await measuredPages(baseURL!);
  // The benchmark's pages, all of them: a page missing from the list would pass unmeasured.
  expect(Object.keys(pages).sort()).toEqual(
    [
      "/",
      "/alerts",
      "/calendar/earnings",
      "/calendar/ma",
      "/calls",
      "/calls/[callId]",
      "/companies/[symbol]",
      "/compare",
      "/live",
      "/search",
      "/watchlists",
    ].sort(),
  );
  const measure = firstLoadMeter(baseURL!);
  const sizes: Record<string, number> = {};
  for (const [route, path] of Object.entries(pages)) {
    const { firstLoadKbGzip, scripts } = await measure(path);
    // A page whose HTML named no script would be measured as nothing.
    expect(scripts, route).toBeGreaterThan(5);
    sizes[route] = firstLoadKbGzip;
  }
  const over = Object.fromEntries(Object.entries(sizes).filter(([, kb]) => kb > FIRST_LOAD_BUDGET_KB));
  expect(over, `first-load JS (kB gzip) per page: ${JSON.stringify(sizes)}`).toEqual({});
});
