import { createDecipheriv, createECDH, hkdfSync, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { startCall } from "./fixtures/embedded";

/**
 * The analyst's workspace end to end: follow three companies, set a keyword rule on that watchlist, a call of one of
 * them starts (embedded control API) and says the keyword: the toast, the system notification, the inbox, one
 * webhook POST and one Web Push (decrypted here, as a browser would) per alert; the toast opens the call room at
 * the sentence with the audio cued there; the watchlist's calendar lists exactly its tickers.
 *
 * Both tests share the one local user's watchlists, so they live in one file, which runs them in order: "Follow"
 * adds to the first watchlist, and the first test's list must be the first.
 *
 * The push endpoint is a local stand-in for a browser's push service (headless Chromium cannot reach a real one):
 * the spec subscribes with its own key pair through the same API the page uses.
 */

const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function threeTickers(request: APIRequestContext): Promise<string[]> {
  // The embedded service builds its history at start and may answer the first calendar request late (504): ask again.
  let body: { data?: { ticker: string }[] } = {};
  for (let attempt = 0; attempt < 6 && !body.data; attempt++) {
    const response = await request.get(
      `/api/calendar/earnings?from=${isoDay(-20)}&to=${isoDay(60)}&pageSize=200`,
    );
    body = (await response.json()) as typeof body;
    if (!body.data) await new Promise((r) => setTimeout(r, 2_000));
  }
  if (!body.data) throw new Error("the earnings calendar did not answer");
  const tickers = [...new Set(body.data.map((r) => r.ticker))].slice(0, 3);
  if (tickers.length < 3) throw new Error("the earnings calendar has fewer than three tickers in range");
  return tickers;
}

interface Receiver {
  port: number;
  hooks: { alert: { id: string; text: string }; text: string }[];
  pushes: { alertId: string; body: string; url: string }[];
  close(): Promise<void>;
}

/** RFC 8291 (aes128gcm) decryption with the subscriber's private key and auth secret. */
function decrypt(body: Buffer, ua: ReturnType<typeof createECDH>, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const info = Buffer.concat([Buffer.from("WebPush: info\0"), ua.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync("sha256", ua.computeSecret(serverKey), auth, info, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  return padded.subarray(0, end).toString("utf8");
}

async function startReceiver(ua: ReturnType<typeof createECDH>, auth: Buffer): Promise<Receiver> {
  const hooks: Receiver["hooks"] = [];
  const pushes: Receiver["pushes"] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.url?.startsWith("/hook")) hooks.push(JSON.parse(body.toString()) as Receiver["hooks"][number]);
      else if (req.url?.startsWith("/push"))
        pushes.push(JSON.parse(decrypt(body, ua, auth)) as Receiver["pushes"][number]);
      res.statusCode = req.url?.startsWith("/push") ? 201 : 200;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as AddressInfo).port,
    hooks,
    pushes,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

test("a followed company's call says the keyword: toast, notification, inbox, one webhook and one push; the toast opens the moment; the watchlist's calendar shows exactly its tickers", async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(180_000);
  const ua = createECDH("prime256v1");
  ua.generateKeys();
  const auth = randomBytes(16);
  const receiver = await startReceiver(ua, auth);
  try {
    const [first, second, third] = (await threeTickers(request)) as [string, string, string];

    // System notifications: allowed, and recorded so the spec can see what the page showed.
    await context.grantPermissions(["notifications"]);
    await page.addInitScript(() => {
      const shown: { title: string; body?: string; tag?: string }[] = [];
      (window as unknown as { __notifications: typeof shown }).__notifications = shown;
      class RecordingNotification {
        static readonly permission = "granted";
        static requestPermission() {
          return Promise.resolve("granted");
        }
        onclick: (() => void) | null = null;
        constructor(title: string, options?: { body?: string; tag?: string }) {
          shown.push({ title, body: options?.body, tag: options?.tag });
        }
        close() {}
      }
      (window as unknown as { Notification: unknown }).Notification = RecordingNotification;
    });

    // Follow three companies: two through a new watchlist, one with the Follow button on its page.
    await page.goto("/watchlists");
    await page.getByRole("textbox", { name: "New watchlist" }).fill("Tonight");
    await page.getByLabel("Tickers (optional)").fill(`${first}, ${second}`);
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await expect(page.getByRole("region", { name: "Watchlist Tonight" })).toBeVisible();
    await page.goto(`/companies/${third}`);
    const follow = page.getByTestId("follow-button");
    await expect(follow).toBeEnabled();
    await follow.click();
    await expect(follow).toHaveAttribute("aria-pressed", "true");
    await page.goto("/watchlists");
    const tickersOfList = page.getByRole("list", { name: "Tickers of Tonight" }).getByRole("listitem");
    await expect(tickersOfList).toHaveCount(3);

    // A keyword rule on the watchlist ("conclude" also finds "concludes"), with a webhook.
    await page.goto("/alerts");
    await page.getByLabel("Word or phrase").fill("conclude");
    await page.getByLabel("On", { exact: true }).selectOption({ label: "Watchlist: Tonight" });
    await page.getByLabel("Webhook (optional, https)").fill(`http://127.0.0.1:${receiver.port}/hook`);
    await page.getByRole("button", { name: "Add rule" }).click();
    await expect(page.getByTestId("alert-rules")).toContainText("“conclude”");

    // This browser's push subscription, pointing at the local push endpoint.
    const subscribed = await page.request.post("/api/alerts/push", {
      data: {
        endpoint: `http://127.0.0.1:${receiver.port}/push/e2e`,
        keys: { p256dh: ua.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
      },
    });
    expect(subscribed.status()).toBe(201);

    const callId = await startCall(first, 30);

    const toast = page.getByTestId("alert-toast").first();
    await expect(toast).toBeVisible({ timeout: 90_000 });
    // On screen, not merely in the DOM: a fixed element inside the header (whose backdrop-filter makes it their
    // containing block) once sat above the top of the window.
    await expect(toast).toBeInViewport({ ratio: 1 });
    await expect(toast).toContainText(first);
    await expect(toast).toContainText(/conclude/i);

    // Each inbox row is a link (it opens in a new tab with a middle click), naming the rule that fired.
    const inboxItem = page
      .getByTestId("alerts-inbox")
      .getByRole("link")
      .filter({ hasText: /conclude/i })
      .first();
    await expect(inboxItem).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("alerts-unread")).toBeVisible();
    // "Mark all read" marks up to the newest alert shown (the toast stays, and still opens its moment below).
    const unreadRow = page.locator('[data-testid="alerts-inbox"] li[data-read="false"]').first();
    await expect(unreadRow).toBeVisible();
    const unreadId = (await unreadRow.getAttribute("data-alert-id"))!;
    await page.getByRole("button", { name: "Mark all read" }).click();
    await expect(
      page.locator(`[data-testid="alerts-inbox"] li[data-alert-id="${unreadId}"]`),
    ).toHaveAttribute("data-read", "true");

    const notifications = () =>
      page.evaluate(
        () => (window as unknown as { __notifications: { body?: string; tag?: string }[] }).__notifications,
      );
    await expect
      .poll(async () => (await notifications()).some((n) => /conclude/i.test(n.body ?? "")))
      .toBe(true);

    // The alert the toast shows (the newest; several collapse into one line), as the API lists it.
    const shownId = await toast.getAttribute("data-alert-id");
    const inbox = (await (await page.request.get("/api/alerts")).json()) as {
      data: {
        id: string;
        callId: string;
        startMs: number;
        sequence: number;
        text: string;
        rules: { label: string; matched: string[] }[];
      }[];
    };
    const alert = inbox.data.find((a) => a.id === shownId)!;
    expect(alert.callId).toBe(callId);
    expect(alert.text).toMatch(/conclude/i);
    expect(alert.rules).toMatchObject([{ label: "“conclude”" }]);
    expect(alert.rules[0]!.matched.join(" ")).toMatch(/conclude/i);

    // The toast opens the call room at the sentence, the audio cued at its time.
    const toastForAlert = page.locator(`[data-testid="alert-toast"][data-alert-id="${alert.id}"]`);
    await toastForAlert.getByRole("button").first().click();
    await expect(page).toHaveURL(
      new RegExp(`/calls/${callId}\\?s=${alert.sequence}&t=${Math.floor(alert.startMs / 1000)}$`),
    );
    const sentence = page.locator(`[data-testid="transcript-sentence"][data-sequence="${alert.sequence}"]`);
    await expect(sentence).toBeVisible({ timeout: 20_000 });
    await expect(sentence).toContainText(alert.text);
    const audioAt = () => page.getByTestId("call-audio").evaluate((el: HTMLAudioElement) => el.currentTime);
    await expect
      .poll(async () => Math.abs((await audioAt()) - Math.floor(alert.startMs / 1000)), { timeout: 30_000 })
      .toBeLessThan(2);
    // A note highlighting the sentence being heard: quoted in the notes, marked in the transcript, exported.
    await page.getByRole("tab", { name: /^Notes/ }).click();
    await page.getByRole("button", { name: "Highlight sentence" }).click();
    const quote = page.getByTestId("call-notes").locator("blockquote").first();
    await expect(quote).toBeVisible();
    const quoted = (await quote.textContent())!.trim();
    const highlighted = page.locator('[data-testid="transcript-sentence"][data-highlighted="true"]');
    await expect(highlighted).toHaveCount(1);
    await expect(highlighted).toContainText(quoted);
    const markdown = await (await page.request.get(`/api/calls/${callId}/notes?format=md`)).text();
    expect(markdown).toContain(`> ${quoted}`);
    expect(markdown).toMatch(new RegExp(`/calls/${callId}\\?t=\\d+\\)`));

    // Exactly one webhook POST and one push per alert (give late duplicates a moment to show).
    await expect
      .poll(() => receiver.hooks.filter((h) => h.alert.id === alert.id).length, { timeout: 15_000 })
      .toBe(1);
    await expect
      .poll(() => receiver.pushes.filter((p) => p.alertId === alert.id).length, { timeout: 15_000 })
      .toBe(1);
    await page.waitForTimeout(2_000);
    expect(receiver.hooks.filter((h) => h.alert.id === alert.id)).toHaveLength(1);
    expect(receiver.pushes.filter((p) => p.alertId === alert.id)).toHaveLength(1);
    expect(receiver.pushes.find((p) => p.alertId === alert.id)!.body).toBe(alert.text);
    // The watchlist's earnings calendar lists exactly its tickers (checked last: the embedded service answers
    // slowly while it warms up, and a retry is what an analyst would press).
    await page.goto("/watchlists");
    const tonight = page.getByRole("region", { name: "Watchlist Tonight" });
    await tonight.getByRole("button", { name: "Calendars" }).click();
    const rows = page.getByTestId("watchlist-earnings").locator("tbody tr[data-ticker]");
    await expect
      .poll(
        async () => {
          const retry = page.getByRole("button", { name: "Retry" });
          if (await retry.isVisible()) await retry.click();
          return rows.count();
        },
        { timeout: 60_000, intervals: [1_000, 2_000, 5_000] },
      )
      .toBeGreaterThan(0);
    const shownTickers = new Set(
      await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-ticker"))),
    );
    expect([...shownTickers].sort()).toEqual([first, second, third].sort());
  } finally {
    await receiver.close();
  }
});

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
