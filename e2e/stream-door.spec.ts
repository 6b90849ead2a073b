import { expect, test } from "@playwright/test";

/**
 * `npm start` serves the live stream from the stream door (server/live/stream-door.ts, ahead of Next in
 * scripts/serve.mjs), not from Next's route handler: the stream's own CSP says which door answered. A regression to
 * the slow path would still work in the browser, so only this check would notice the lost capacity.
 */
test("the live stream is served by the stream door, with its headers and preamble", async ({ page }) => {
  // Any same-origin document will do; the health JSON is the lightest.
  await page.goto("/api/health");
  const seen = await page.evaluate(async () => {
    const controller = new AbortController();
    const response = await fetch("/api/stream?tickers=*", { signal: controller.signal });
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    controller.abort();
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      csp: response.headers.get("content-security-policy"),
      nosniff: response.headers.get("x-content-type-options"),
      first: new TextDecoder().decode(value),
    };
  });
  expect(seen).toMatchObject({
    status: 200,
    type: "text/event-stream; charset=utf-8",
    csp: "default-src 'none'; frame-ancestors 'none'",
    nosniff: "nosniff",
  });
  expect(seen.first).toMatch(/^retry: 3000\nid: \d+-\d+\n\n/);
});

test("HEAD on the live stream answers headers only and holds no stream slot", async ({ request }) => {
  // More HEADs than the per-client cap on open streams (6): each must release everything at once.
  for (let i = 0; i < 8; i += 1) {
    const head = await request.head("/api/stream?tickers=*");
    expect(head.status()).toBe(200);
    expect(head.headers()["content-type"]).toBe("text/event-stream; charset=utf-8");
  }
  const other = await request.post("/api/stream?tickers=*", { data: {} });
  expect(other.status()).toBe(405);
  expect(other.headers()["allow"]).toBe("GET, HEAD");
});
