import { expect, test, type APIRequestContext } from "@playwright/test";

interface SearchBody {
  data: { totalCalls: number; calls: { callId: string; hits: { sequence: number; startMs: number }[] }[] };
}

/**
 * Waits for the archive's first backfill (the server started with an empty database folder): 1.5 to 4 minutes for the
 * embedded service's 780 calls on a busy 2-core machine, most of it the service building each call on first request
 * and the calls its rate limit refused being read again one at a time.
 */
async function waitForArchive(request: APIRequestContext): Promise<void> {
  await expect
    .poll(
      async () => {
        const health = (await (await request.get("/api/health")).json()) as {
          archive?: { state: string; calls: number };
        };
        return health.archive?.state === "live" && health.archive.calls > 0;
      },
      { timeout: 480_000, intervals: [1_000] },
    )
    .toBe(true);
}

/**
 * A phrase that occurs in exactly one archived call: a few words around a figure of one of its sentences (the demo
 * transcripts repeat their wording from call to call, their figures rarely), checked against the API. The newest
 * completed calls may be re-runs that other specs started through the control API (the same script as a historical
 * call), so the candidates reach well past them.
 */
async function uniquePhrase(request: APIRequestContext) {
  const list = (await (await request.get("/api/calls?status=completed&pageSize=30")).json()) as {
    data: { callId: string }[];
  };
  for (const { callId } of list.data) {
    const call = (await (await request.get(`/api/calls/${callId}`)).json()) as {
      data: { segments: { sequence: number; startMs: number; text: string }[] };
    };
    for (const segment of call.data.segments) {
      if (segment.startMs < 20_000 || !/\d\.\d/.test(segment.text)) continue;
      const words = segment.text
        .replace(/[.,;:!?]+(\s|$)/g, " ")
        .split(/\s+/)
        .filter(Boolean);
      const at = words.findIndex((w) => /\d\.\d/.test(w));
      const phrase = words.slice(Math.max(0, at - 3), at + 2).join(" ");
      const body = (await (
        await request.get(`/api/search?q=${encodeURIComponent(`"${phrase}"`)}`)
      ).json()) as SearchBody;
      const hit = body.data.calls[0]?.hits[0];
      if (
        body.data.totalCalls === 1 &&
        body.data.calls[0]?.callId === callId &&
        hit?.sequence === segment.sequence
      ) {
        return { phrase, callId, sequence: segment.sequence, startMs: segment.startMs };
      }
    }
  }
  throw new Error("no phrase unique to one call found in the newest 30 completed calls");
}

test("searching a phrase said in one call lands on that sentence, highlighted, with the audio at its time", async ({
  page,
  request,
}) => {
  test.setTimeout(600_000);
  await waitForArchive(request);
  const target = await uniquePhrase(request);

  await page.goto("/search");
  await page.getByRole("searchbox", { name: "Search every call's transcript" }).fill(`"${target.phrase}"`);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/[?&]q=/);

  const results = page.getByTestId("search-result");
  await expect(results).toHaveCount(1);
  await expect(results.first()).toHaveAttribute("data-call-id", target.callId);
  const hit = results.first().getByTestId("search-hit-link").first();
  await expect(hit.locator("mark")).not.toHaveCount(0);
  await hit.click();

  await expect(page).toHaveURL(new RegExp(`/calls/${target.callId}\\?s=${target.sequence}&t=`));
  const sentence = page.locator(`[data-testid="transcript-sentence"][data-sequence="${target.sequence}"]`);
  await expect(sentence).toHaveAttribute("data-focused", "true");
  await expect(sentence).toBeInViewport();
  const clock = (ms: number) => {
    const s = Math.floor(ms / 1000);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  };
  await expect(page.getByTestId("audio-position")).toHaveText(clock(target.startMs));
});

test("a search's link is answered in the page's HTML: its hits are there before any script runs", async ({
  page,
  request,
}) => {
  test.setTimeout(600_000);
  await waitForArchive(request);
  const target = await uniquePhrase(request);
  const url = `/search?q=${encodeURIComponent(`"${target.phrase}"`)}`;

  // The server renders the URL's search (docs/performance.md): the hit is in the HTML, not fetched after hydration.
  const html = await (await request.get(url)).text();
  expect(html).toContain(`data-call-id="${target.callId}"`);

  // And the page, once hydrated, is the same search: no second request for it, the hit a working link.
  const searches: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/search") searches.push(r.url());
  });
  await page.goto(url);
  const results = page.getByTestId("search-result");
  await expect(results).toHaveCount(1);
  await expect(results.first()).toHaveAttribute("data-call-id", target.callId);
  await page.waitForLoadState("networkidle");
  expect(searches).toEqual([]);
  await results.first().getByTestId("search-hit-link").first().click();
  await expect(page).toHaveURL(new RegExp(`/calls/${target.callId}\\?s=${target.sequence}&t=`));
});

test("a search with only common words, or for a ticker the archive lacks, says why it found nothing", async ({
  page,
}) => {
  await page.goto("/search?q=the%20and%20of");
  await expect(page.getByTestId("search-notice")).toContainText("common words");
  await page.goto("/search?q=margin&tickers=ZZZZ");
  await expect(page.getByTestId("search-notice")).toContainText("ZZZZ");
});
