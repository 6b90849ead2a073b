import { expect, test, type APIRequestContext, type Locator } from "@playwright/test";
import { startCall } from "./fixtures/embedded";

interface CalendarRow {
  ticker: string;
  period: string | null;
  periodYear: number | null;
  date: string;
  eps: number | null;
  revenue: number | null;
  epsSurprisePercent: number | null;
  revenueSurprisePercent: number | null;
}

/**
 * A ticker whose latest quarter is reported with surprises (the embedded call states its actuals) and whose next
 * quarter is already on the calendar (the guidance is compared with it).
 */
async function reportedTicker(request: APIRequestContext): Promise<string> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const response = await request.get(`/api/calendar/earnings?from=${day(-60)}&to=${day(90)}&pageSize=1000`);
  const body = (await response.json()) as { data: CalendarRow[] };
  const today = day(0);
  const upcoming = new Set(
    body.data.filter((r) => r.date > today && r.revenue === null).map((r) => r.ticker),
  );
  const row = body.data.find(
    (r) =>
      r.date <= today &&
      r.revenueSurprisePercent !== null &&
      r.epsSurprisePercent !== null &&
      upcoming.has(r.ticker),
  );
  if (!row)
    throw new Error("no company with a reported quarter in the last 60 days and the next one announced");
  return row.ticker;
}

async function calendarRow(request: APIRequestContext, ticker: string, period: string, year: number) {
  const response = await request.get(`/api/calendar/earnings?tickers=${ticker}&pageSize=50`);
  const body = (await response.json()) as { data: CalendarRow[] };
  const row = body.data.find((r) => r.period === period && r.periodYear === year);
  if (!row) throw new Error(`no calendar record for ${ticker} ${period} ${year}`);
  return row;
}

/** The signed percent a surprise cell shows ("▲ beat +2.2%" → 2.2). */
async function shownPercent(cell: Locator): Promise<number> {
  const text = (await cell.innerText()).replace("−", "-");
  const m = /([+-]?\d+(?:\.\d+)?)%/.exec(text);
  if (!m) throw new Error(`no percent in "${text}"`);
  return Number(m[1]);
}

test("a live call's figures are compared with the calendar's consensus, its changes since last quarter and its analysts are listed, and every item seeks the audio", async ({
  page,
  request,
}) => {
  test.setTimeout(420_000);
  const ticker = await reportedTicker(request);
  const callId = await startCall(ticker, 240);
  await page.goto(`/calls/${callId}`);
  const room = page.getByTestId("call-room");
  await expect(room).toHaveAttribute("data-status", "live", { timeout: 20_000 });

  const call = (await (await request.get(`/api/calls/${callId}`)).json()) as {
    data: { period: string; year: number };
  };
  const record = await calendarRow(request, ticker, call.data.period, call.data.year);

  // Revenue and EPS as stated, each with the calendar's own surprise.
  const figures = page.locator("#figures");
  const revenue = figures.locator("[data-testid=figure][data-metric=revenue]:not([data-guidance])").first();
  const eps = figures.locator("[data-testid=figure][data-metric=eps]:not([data-guidance])").first();
  await expect(revenue.getByTestId("figure-surprise")).toBeVisible({ timeout: 150_000 });
  await expect(eps.getByTestId("figure-surprise")).toBeVisible({ timeout: 60_000 });
  expect(await shownPercent(revenue.getByTestId("figure-surprise"))).toBeCloseTo(
    record.revenueSurprisePercent!,
    1,
  );
  expect(await shownPercent(eps.getByTestId("figure-surprise"))).toBeCloseTo(record.epsSurprisePercent!, 1);

  // Guidance against the next quarter's consensus.
  const guidance = figures.locator("[data-testid=figure][data-metric=revenue][data-guidance]").first();
  await expect(guidance.getByTestId("figure-consensus")).toContainText(/guides revenue .*consensus/, {
    timeout: 90_000,
  });

  // At least one change against the previous call, with both quotes.
  const change = page.locator("#changes").getByTestId("change").first();
  await expect(change).toBeVisible({ timeout: 30_000 });
  await expect(change.locator("blockquote")).toHaveCount(2);
  await expect(change.getByTestId("change-previous-link")).toHaveAttribute("href", /\/calls\/.+\?t=\d+/);

  // The Q&A names the analyst the operator introduced.
  const turn = page.locator("#qa").getByTestId("qa-turn").first();
  await expect(turn).toBeVisible({ timeout: 200_000 });
  const intro = page
    .getByTestId("transcript-sentence")
    .filter({ hasText: /question comes from/ })
    .first();
  const introduced = /from ([A-Z][\w'’-]+(?: [A-Z][\w'’.-]+)+) with/.exec(await intro.innerText())?.[1];
  expect(introduced).toBeTruthy();
  await expect(turn.getByTestId("qa-analyst")).toHaveText(introduced!);

  // Every item seeks the audio to its sentence.
  await page.getByRole("button", { name: "Play", exact: true }).click();
  const audio = page.getByTestId("call-audio");
  const currentMs = () => audio.evaluate((el: HTMLAudioElement) => el.currentTime * 1000);
  await expect.poll(currentMs, { timeout: 30_000 }).toBeGreaterThan(0);
  for (const item of [revenue, change.getByTestId("change-seek"), turn]) {
    const sequence = await item.getAttribute("data-seek-sequence");
    const sentence = page.locator(`[data-testid=transcript-sentence][data-sequence="${sequence}"]`);
    const startMs = Number(await sentence.getAttribute("data-start-ms"));
    await item.click();
    await expect
      .poll(async () => Math.abs((await currentMs()) - startMs), { timeout: 15_000 })
      .toBeLessThan(3_000);
  }
});
