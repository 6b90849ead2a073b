import { expect, test, type APIRequestContext } from "@playwright/test";
import { startCall } from "./fixtures/embedded";

/** A ticker the embedded universe knows (calls can only start for those), from our own calendar API. */
async function knownTicker(request: APIRequestContext, index: number): Promise<string> {
  const response = await request.get("/api/calendar/earnings?pageSize=50");
  const body = (await response.json()) as { data: { ticker: string }[] };
  const tickers = [...new Set(body.data.map((r) => r.ticker))];
  const ticker = tickers[index % Math.max(tickers.length, 1)];
  if (!ticker) throw new Error("the earnings calendar is empty");
  return ticker;
}

/**
 * The call room on a live call of the embedded service, end to end: SSE into the query cache, hls.js audio, seeking,
 * and the call's completion and enrichment arriving without a reload (the config sets EMBEDDED_ENRICH_SECONDS=3).
 */

test("a live call shows sentences and their sentiment as they are spoken, plays its audio, seeks on click, then shows completion and the summary without reload", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const callId = await startCall(await knownTicker(request, 0), 45);
  await page.goto(`/calls/${callId}`);

  const room = page.getByTestId("call-room");
  await expect(room).toHaveAttribute("data-status", "live", { timeout: 20_000 });
  await expect(page.getByTestId("call-status")).toContainText("Live");

  const sentences = page.getByTestId("transcript-sentence");
  await expect(sentences.first()).toBeVisible({ timeout: 30_000 });
  const countBefore = await sentences.count();
  await expect.poll(async () => sentences.count(), { timeout: 30_000 }).toBeGreaterThan(countBefore);

  // Sentiment moves while the call is live: one point per scored sentence, labelled as the live estimate.
  const chart = page.getByTestId("sentiment-chart");
  await expect(chart).toBeVisible({ timeout: 15_000 });
  await expect(room).toHaveAttribute("data-status", "live");
  const chartPoints = async () => Number(await chart.getAttribute("data-points"));
  const pointsBefore = await chartPoints();
  expect(pointsBefore).toBeGreaterThan(0);
  await expect(page.getByTestId("sentiment-source")).toHaveText("live estimate");
  await expect(page.getByTestId("sentiment-mean")).not.toHaveText("—");
  await expect.poll(chartPoints, { timeout: 30_000 }).toBeGreaterThan(pointsBefore);

  await page.getByRole("button", { name: "Play", exact: true }).click();
  const audio = page.getByTestId("call-audio");
  const currentTime = () => audio.evaluate((el: HTMLAudioElement) => el.currentTime);
  await expect.poll(currentTime, { timeout: 30_000 }).toBeGreaterThan(0);
  const t1 = await currentTime();
  await expect.poll(currentTime, { timeout: 15_000 }).toBeGreaterThan(t1 + 0.5);

  const first = sentences.first();
  const startMs = Number(await first.getAttribute("data-start-ms"));
  await first.getByRole("button", { name: /^Play from/ }).click();
  await expect
    .poll(async () => Math.abs((await currentTime()) * 1000 - startMs), { timeout: 15_000 })
    .toBeLessThan(3_000);

  await expect(room).toHaveAttribute("data-status", /completed|enriched/, { timeout: 90_000 });
  await expect(page.getByTestId("call-status")).not.toContainText("Live");
  await page.getByRole("tab", { name: "Summary" }).click();
  await expect(page.getByTestId("summary-points")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("summary-points").getByRole("listitem").first()).not.toBeEmpty();
  // Enrichment replaces the live estimates with the upstream's scores.
  await expect(page.getByTestId("sentiment-source")).toHaveText("enriched", { timeout: 30_000 });
});

test("an unknown call id answers a not-found page", async ({ page }) => {
  const response = await page.goto("/calls/ffffffffffffffffffffffff");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "No such call" })).toBeVisible();
});

test("a click on a sentence past the end of the playlist the player has waits for the playlist, then plays from it", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const callId = await startCall(await knownTicker(request, 3), 90);
  await page.goto(`/calls/${callId}`);
  const sentences = page.getByTestId("transcript-sentence");
  await expect(sentences.nth(1)).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "Play", exact: true }).click();
  const audio = page.getByTestId("call-audio");
  const currentTime = () => audio.evaluate((el: HTMLAudioElement) => el.currentTime);
  await expect.poll(currentTime, { timeout: 30_000 }).toBeGreaterThan(0);

  // The player's view of the live playlist stops growing (as when its reload comes late on a busy machine) while
  // the call goes on: the newest sentence then lies past what the player can seek to.
  let frozen: string | null = null;
  let isFrozen = true;
  await page.route("**/audio/playlist.m3u8", async (route) => {
    if (!isFrozen) return route.continue();
    if (frozen === null) frozen = await (await route.fetch()).text();
    await route.fulfill({ body: frozen, contentType: "application/vnd.apple.mpegurl" });
  });
  const seekableEnd = () =>
    audio.evaluate((el: HTMLAudioElement) =>
      el.seekable.length ? el.seekable.end(el.seekable.length - 1) : 0,
    );
  await expect.poll(() => frozen !== null, { timeout: 15_000 }).toBe(true);
  const frozenEnd = await seekableEnd();
  const count = await sentences.count();
  await expect.poll(async () => sentences.count(), { timeout: 60_000 }).toBeGreaterThan(count + 2);
  const newest = sentences.last();
  const startMs = Number(await newest.getAttribute("data-start-ms"));
  expect(startMs / 1000).toBeGreaterThan(frozenEnd + 2);

  await newest.getByRole("button", { name: /^Play from/ }).click();
  await page.waitForTimeout(1_000);
  isFrozen = false;
  await expect
    .poll(async () => Math.abs((await currentTime()) * 1000 - startMs), { timeout: 20_000 })
    .toBeLessThan(3_000);
});

test("while live, voices are named from the call's own words, marked inferred, until enrichment names them", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const callId = await startCall(await knownTicker(request, 1), 45);
  await page.goto(`/calls/${callId}`);
  const room = page.getByTestId("call-room");
  await expect(room).toHaveAttribute("data-status", "live", { timeout: 20_000 });
  // The operator hands the conference to the head of investor relations by name; the next voice carries it.
  const inferred = room.getByText("(inferred)");
  await expect.poll(() => inferred.count(), { timeout: 60_000 }).toBeGreaterThan(0);
  await expect(room).toHaveAttribute("data-status", "live");
  const speakers = room.getByTestId("transcript-speaker");
  const labels = await speakers.allInnerTexts();
  expect(labels.some((l) => /\(inferred\)/i.test(l) && !/speaker/i.test(l))).toBe(true);
  // Enrichment's names replace the inferred ones.
  await expect(page.getByTestId("sentiment-source")).toHaveText("enriched", { timeout: 120_000 });
  await expect.poll(() => inferred.count(), { timeout: 30_000 }).toBe(0);
});
