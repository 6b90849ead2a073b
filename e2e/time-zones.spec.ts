import { expect, test } from "@playwright/test";

/**
 * Analysts read Callroom in their own zone, which is rarely the server's. The HTML is rendered in one zone and the
 * page hydrates in another: any time formatted in the runtime's default zone makes React discard the server HTML
 * (a hydration error) and flash. The browser here is put in a zone that differs from the server's (same machine
 * as this process), and every page must hydrate without an error and end up showing the reader's zone.
 */
const serverZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const readerZone = serverZone === "Pacific/Kiritimati" ? "Pacific/Pago_Pago" : "Pacific/Kiritimati";

test.use({ timezoneId: readerZone });

async function pagesToVisit(request: import("@playwright/test").APIRequestContext): Promise<string[]> {
  const calendar = (await (await request.get("/api/calendar/earnings?pageSize=50&importance=3")).json()) as {
    data: { ticker: string }[];
  };
  const tickers = [...new Set(calendar.data.map((r) => r.ticker))].slice(0, 3);
  const calls = (await (await request.get("/api/calls?pageSize=20")).json()) as {
    data: { callId: string; status: string }[];
  };
  const live = calls.data.find((c) => c.status === "live") ?? calls.data[0]!;
  return [
    "/",
    "/live",
    "/calls",
    `/calls/${live.callId}`,
    "/calendar/earnings?range=all",
    "/calendar/ma",
    `/companies/${tickers[0]}`,
    `/compare?symbols=${tickers.join(",")}`,
  ];
}

test("every page hydrates without error in a zone other than the server's", async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
  page.on("console", (message) => {
    const text = message.text();
    const hydration = message.type() === "error" && /hydrat|#418|#423|#425/i.test(text);
    // Our own headers must not make the browser complain on every page either.
    const headerWarning = /Permissions-Policy|Content-Security-Policy/.test(text);
    if (hydration || headerWarning) errors.push(`${page.url()}: ${text}`);
  });
  for (const path of await pagesToVisit(request)) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  expect(errors).toEqual([]);
});

test("call times are shown in the reader's zone once the page is live", async ({ page }) => {
  await page.goto("/calls");
  // Kiritimati is UTC+14 ("GMT+14"), Pago Pago UTC−11 ("SST" / "GMT-11"): neither is the server's UTC rendering.
  const expected = readerZone === "Pacific/Kiritimati" ? /GMT\+14/ : /GMT-11|SST/;
  await expect(page.getByTestId("call-row").first().locator("time")).toHaveText(expected);
});
