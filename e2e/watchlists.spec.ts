import { expect, test, type APIRequestContext } from "@playwright/test";

/** Watchlists as a calendar application sees them: the secret feed URL, and revoking it. */

const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function upcomingTicker(request: APIRequestContext): Promise<string> {
  const response = await request.get(`/api/calendar/earnings?from=${isoDay(2)}&to=${isoDay(80)}&pageSize=50`);
  const ticker = ((await response.json()) as { data: { ticker: string }[] }).data[0]?.ticker;
  if (!ticker) throw new Error("no upcoming report in the embedded calendar");
  return ticker;
}

test("the calendar feed lists the followed companies' upcoming reports by secret URL, and stops when revoked", async ({
  page,
  request,
}) => {
  const ticker = await upcomingTicker(request);
  await page.goto("/watchlists");
  await page.getByRole("textbox", { name: "New watchlist" }).fill("Feed");
  await page.getByLabel("Tickers (optional)").fill(ticker);
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByRole("region", { name: "Watchlist Feed" })).toBeVisible();

  await page.getByRole("button", { name: "Make a calendar link" }).click();
  const feedUrl = await page.getByLabel("Calendar feed URL").inputValue();
  expect(feedUrl).toMatch(/\/api\/feeds\/[A-Za-z0-9_-]{43}\.ics$/);

  const feed = await request.get(feedUrl);
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toContain("text/calendar");
  const ics = (await feed.text()).replace(/\r\n[ \t]/g, "");
  expect(ics).toContain("BEGIN:VCALENDAR");
  expect(ics).toContain(`SUMMARY:${ticker} `);

  await page.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText("The calendar link no longer works.")).toBeVisible();
  expect((await request.get(feedUrl)).status()).toBe(404);
});
