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

test("a call that starts while /live is open appears as a tile by itself and fills with sentences", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.goto("/live");
  await expect(page.getByRole("heading", { name: "Live calls" })).toBeVisible();
  // The board is loaded (tiles, or the empty state) before the call starts, so the tile can only come from SSE.
  await expect(
    page.getByTestId("live-tile").first().or(page.getByText("No call is live right now")),
  ).toBeVisible({
    timeout: 20_000,
  });
  const callId = await startCall(await knownTicker(request, 8), 40);
  const tile = page.locator(`[data-testid="live-tile"][data-call-id="${callId}"]`);
  await expect(tile).toBeVisible({ timeout: 30_000 });
  await expect(tile.getByTestId("live-tile-sentences").getByRole("listitem").first()).toBeVisible({
    timeout: 30_000,
  });
  await tile.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/calls/${callId}`));
});
