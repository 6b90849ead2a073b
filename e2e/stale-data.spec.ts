import { expect, test, type Page } from "@playwright/test";

/**
 * An upstream outage as the browser sees it: our API answers from its cache with `meta.stale: true` and the
 * time the data was fetched. The spec rewrites real answers that way (the server's own stale-if-error path is
 * covered by test/security/circuit-breaker.test.ts), then "recovers" and checks the note goes away by itself.
 *
 * The pages render their first data on the server, which `page.route` never sees; what the browser fetches
 * afterwards does pass through it. So the browser's clock is moved past the data's fresh time (10 min for
 * fundamentals, 30 s for calendars) and the reader "returns to the tab": the refetch meets the outage. The same
 * fake clock then runs the 30 s stale retry at once, so no spec waits on wall-clock intervals.
 */
const FETCHED_AT = "2026-01-05T14:02:00.000Z";
/** Past every query's fresh time (fundamentals: 10 min). */
const PAST_FRESH = "11:00";

async function simulateOutage(page: Page, pattern: string | RegExp) {
  const state = { outage: true };
  await page.route(pattern, async (route) => {
    const response = await route.fetch();
    if (!state.outage || !response.ok()) return route.fulfill({ response });
    const body = (await response.json()) as { meta: Record<string, unknown> };
    body.meta = { ...body.meta, stale: true, fetchedAt: FETCHED_AT };
    return route.fulfill({ response, json: body });
  });
  return state;
}

/** The reader comes back to the tab: TanStack Query refetches whatever is no longer fresh. */
async function refocus(page: Page) {
  await page.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));
}

async function tickers(page: Page): Promise<[string, string]> {
  const response = await page.request.get("/api/calendar/earnings?pageSize=50&importance=3");
  const body = (await response.json()) as { data: { ticker: string }[] };
  const found = [...new Set(body.data.map((r) => r.ticker))];
  expect(found.length).toBeGreaterThanOrEqual(2);
  return [found[0]!, found[1]!];
}

test("company panels say what is stale and since when, and clear the note once the upstream answers again", async ({
  page,
}) => {
  const [symbol] = await tickers(page);
  await page.clock.install();
  const outage = await simulateOutage(page, /\/api\/fundamentals\/valuation-ratios/);
  await page.goto(`/companies/${symbol}`);
  const valuation = page.getByRole("region", { name: "Valuation ratios" });
  const note = valuation.getByTestId("stale-note");
  // Rendered on the server with fresh data: no note yet. (Should the page hydrate only after the clock moves, its
  // queries mount already past their fresh time and refetch at once: the same outcome as the focus below.)
  await expect(valuation.getByRole("table")).toBeVisible();
  await expect(note).toHaveCount(0);

  await page.clock.fastForward(PAST_FRESH);
  await refocus(page);
  await expect(note).toContainText(/Valuation ratios: showing data from .*2:02 PM UTC/);
  await expect(note).toContainText("the market-data service is not answering");
  await expect(note.locator("time")).toHaveAttribute("datetime", FETCHED_AT);
  // Other panels got fresh data: no note there. (Panels load as they near the viewport: scroll as a reader would.)
  await page.getByRole("region", { name: "Operation ratios", exact: true }).scrollIntoViewIfNeeded();
  await expect(
    page.getByRole("region", { name: "Operation ratios", exact: true }).getByRole("table"),
  ).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Operation ratios", exact: true }).getByTestId("stale-note"),
  ).toHaveCount(0);

  outage.outage = false;
  // No focus change this time: the stale answer's own retry (every 30 s, providers.tsx) brings the fresh one.
  await page.clock.fastForward("00:31");
  await expect(note).toHaveCount(0);
  await expect(valuation.getByRole("table")).toBeVisible();
});

test("compare and the overview show the stale note on the panels served from cache", async ({ page }) => {
  const [a, b] = await tickers(page);
  await page.clock.install();
  const outage = await simulateOutage(page, /\/api\/(fundamentals\/all|calendar\/ma)/);
  await page.goto(`/compare?symbols=${a},${b}`);
  await expect(page.getByTestId("compare-table")).toBeVisible();
  await page.clock.fastForward(PAST_FRESH);
  await refocus(page);
  await expect(page.getByTestId("stale-note")).toContainText(
    /Fundamentals: showing data from .+ — the market-data service is not answering\./,
  );

  await page.goto("/");
  const deals = page.getByRole("region", { name: /Recent M&A/ });
  await expect(deals).toBeVisible();
  await page.clock.fastForward(PAST_FRESH);
  await refocus(page);
  await expect(deals.getByTestId("stale-note")).toContainText(/Recent deals: showing data from/);
  await expect(page.getByRole("region", { name: /Today’s earnings/ }).getByTestId("stale-note")).toHaveCount(
    0,
  );

  outage.outage = false;
  // A returning reader (window focus) refetches stale data at once instead of waiting for the next retry.
  await refocus(page);
  await expect(deals.getByTestId("stale-note")).toHaveCount(0);
});
