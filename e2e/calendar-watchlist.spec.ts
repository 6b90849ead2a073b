import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { freePort } from "../test/support/free-port";

/**
 * The calendar pages filtered by a watchlist, and following companies from calendar rows and the ticker search.
 *
 * Watchlists belong to the one local user of the suite's server, and alerts.spec.ts needs its watchlist to be the
 * first (Follow adds to the first). So this spec starts an instance of its own, with a database of its own, from the
 * suite's build (as security-login.spec.ts does): what it creates and follows cannot reach another spec.
 */

let app: ChildProcess | undefined;
let dir = "";
let origin = "";
const output: string[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dir = mkdtempSync(join(tmpdir(), "callroom-calendar-watchlist-"));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  app = spawn(process.execPath, ["scripts/launch.mjs", "start"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      EMBEDDED_PORT: "0",
      EMBEDDED_LIVE_CALLS: "0",
      UPSTREAM_BASE_URL: "",
      DATABASE_URL: "",
      CALLROOM_DATA_DIR: dir,
      ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so afterAll stops the launcher and the children it started (next, embedded).
    detached: true,
  });
  app.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  app.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (app.exitCode !== null) throw new Error(`the app exited:\n${output.join("").slice(-4000)}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`no healthy app:\n${output.join("").slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
});

test.afterAll(async () => {
  if (app?.pid && app.exitCode === null) {
    const exited = new Promise((r) => app!.once("exit", r));
    process.kill(-app.pid, "SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 8_000))]);
    if (app.exitCode === null && app.signalCode === null) process.kill(-app.pid, "SIGKILL");
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const FROM = isoDay(-50);
const TO = isoDay(50);

interface Watchlist {
  id: string;
  name: string;
  tickers: string[];
}
interface EarningsRow {
  id: string;
  ticker: string;
}
interface MaRow {
  id: string;
  acquirer: { ticker: string | null };
  target: { ticker: string | null };
}

async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  // A fresh instance's embedded service answers slowly at first (a 504 from our timeout); ask again, as a reader would.
  let response = await request.get(`${origin}${path}`);
  for (let attempt = 1; response.status() >= 500 && attempt < 6; attempt++) {
    await new Promise((r) => setTimeout(r, 2_000));
    response = await request.get(`${origin}${path}`);
  }
  expect(response.status(), path).toBe(200);
  return (await response.json()) as T;
}

async function getData<T>(request: APIRequestContext, path: string): Promise<T> {
  return (await getJson<{ data: T }>(request, path)).data;
}

async function watchlists(request: APIRequestContext): Promise<Watchlist[]> {
  return getData<Watchlist[]>(request, "/api/watchlists");
}

async function createWatchlist(request: APIRequestContext, name: string, tickers: string[]) {
  // A script's request (no Origin, no Sec-Fetch-Site) passes the same-origin rule, as the README says.
  const response = await request.post(`${origin}/api/watchlists`, { data: { name, tickers } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { data: Watchlist }).data;
}

/** What the main calendar API lists for these tickers, asked 50 at a time here (independently of the page). */
async function expectedEarnings(request: APIRequestContext, tickers: string[]) {
  const rows = new Map<string, EarningsRow>();
  for (let i = 0; i < tickers.length; i += 50) {
    const part = tickers.slice(i, i + 50).join(",");
    const page = await getData<EarningsRow[]>(
      request,
      `/api/calendar/earnings?from=${FROM}&to=${TO}&tickers=${part}&pageSize=1000`,
    );
    for (const row of page) rows.set(row.id, row);
  }
  return [...rows.values()];
}

async function expectedDeals(request: APIRequestContext, tickers: string[]) {
  const rows = new Map<string, MaRow>();
  for (let i = 0; i < tickers.length; i += 50) {
    const part = tickers.slice(i, i + 50).join(",");
    for (const row of await getData<MaRow[]>(request, `/api/calendar/ma?tickers=${part}&pageSize=1000`))
      rows.set(row.id, row);
  }
  return [...rows.values()];
}

/** The windowed table renders only the rows in view: scroll it through and read every row's ticker links. */
async function tickersOfAllRows(page: Page, table: Locator, rowTestId: string): Promise<string[][]> {
  const seen = new Map<string, string[]>();
  await table.evaluate((el) => el.scrollTo(0, 0));
  for (;;) {
    const rows = await table.getByTestId(rowTestId).evaluateAll((trs) =>
      trs.map((tr) => ({
        index: tr.getAttribute("aria-rowindex") ?? tr.textContent ?? "",
        tickers: [...tr.querySelectorAll("a")].map((a) => a.textContent?.trim() ?? ""),
      })),
    );
    for (const row of rows) seen.set(row.index, row.tickers);
    const atEnd = await table.evaluate((el) => {
      const before = el.scrollTop;
      el.scrollBy(0, el.clientHeight * 0.8);
      return el.scrollTop === before;
    });
    if (atEnd) break;
    await page.waitForTimeout(100);
  }
  return [...seen.values()];
}

test("the earnings and M&A calendars filtered by a watchlist of more than 50 companies show exactly its companies", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const reporting = [
    ...new Set(
      (
        await getData<EarningsRow[]>(request, `/api/calendar/earnings?from=${FROM}&to=${TO}&pageSize=1000`)
      ).map((r) => r.ticker),
    ),
  ];
  const acquirers = (await getData<MaRow[]>(request, "/api/calendar/ma?pageSize=20"))
    .map((d) => d.acquirer.ticker)
    .filter((t): t is string => Boolean(t));
  const tickers = [...new Set([...reporting.slice(0, 56), ...acquirers.slice(0, 4)])];
  expect(tickers.length).toBeGreaterThan(50);
  const list = await createWatchlist(request, "Big list", tickers);
  // The server path the pages use asks the upstream in chunks of 50 and merges them.
  const merged = await getJson<{ meta: { requests: number } }>(
    request,
    `/api/watchlists/${list.id}/calendar?kind=earnings&from=${FROM}&to=${TO}&sort=date:asc&page=0&pageSize=1000`,
  );
  expect(merged.meta.requests).toBeGreaterThanOrEqual(2);

  // Earnings: choose the watchlist in the filter bar; the URL keeps it.
  await page.goto(`${origin}/calendar/earnings?range=custom&from=${FROM}&to=${TO}&pageSize=1000`);
  await expect(page.getByText(/refreshes every 60 s/)).toBeVisible();
  await page.getByLabel("Watchlist", { exact: true }).selectOption({ label: `Big list (${tickers.length})` });
  await expect(page).toHaveURL(new RegExp(`watchlist=${list.id}`));
  await expect(page.getByLabel("Tickers", { exact: true })).toBeDisabled();
  const expected = await expectedEarnings(request, tickers);
  expect(expected.length).toBeGreaterThan(50);
  const earningsTable = page.getByTestId("earnings-table");
  // aria-rowcount counts the header row too; the count settles once the watchlist's rows replaced the others.
  await expect(earningsTable.locator("table")).toHaveAttribute("aria-rowcount", String(expected.length + 1), {
    timeout: 30_000,
  });
  await expect(page.getByText(`watchlist Big list (${tickers.length} companies)`)).toBeVisible();
  const shown = await tickersOfAllRows(page, earningsTable, "earnings-row");
  expect(shown).toHaveLength(expected.length);
  expect(new Set(shown.map((links) => links[0]))).toEqual(new Set(expected.map((r) => r.ticker)));

  // M&A: the same watchlist, opened by URL; a deal is listed when its acquirer or its target is in the list.
  await page.goto(`${origin}/calendar/ma?watchlist=${list.id}&range=all&pageSize=1000`);
  await expect(page.getByLabel("Watchlist", { exact: true })).toHaveValue(list.id);
  const deals = await expectedDeals(request, tickers);
  expect(deals.length).toBeGreaterThan(0);
  const maTable = page.getByTestId("ma-table");
  await expect(maTable.locator("table")).toHaveAttribute("aria-rowcount", String(deals.length + 1), {
    timeout: 30_000,
  });
  const dealRows = await tickersOfAllRows(page, maTable, "ma-row");
  expect(dealRows).toHaveLength(deals.length);
  const inList = new Set(tickers);
  for (const links of dealRows)
    expect(
      links.some((t) => inList.has(t)),
      links.join(" → "),
    ).toBe(true);

  // An empty watchlist explains itself; an unknown id says so and leads back to every company.
  const empty = await createWatchlist(request, "Empty", []);
  await page.goto(`${origin}/calendar/earnings?watchlist=${empty.id}`);
  await expect(page.getByText("“Empty” has no companies yet")).toBeVisible();
  await expect(page.getByTestId("earnings-table")).toHaveCount(0);
  await page.goto(`${origin}/calendar/ma?watchlist=999999`);
  await expect(page.getByText("This watchlist does not exist")).toBeVisible();
  await page.getByRole("button", { name: "Show all companies" }).click();
  await expect(page).not.toHaveURL(/watchlist=/);
  await expect(page.getByLabel("Watchlist", { exact: true })).toHaveValue("");
  await expect(page.getByTestId("ma-row").first()).toBeVisible();
});

test("a company followed from a calendar row or from the ticker search joins the first watchlist", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const [first] = await watchlists(request);
  expect(first).toBeDefined();
  const followed = new Set((await watchlists(request)).flatMap((l) => l.tickers));
  const candidates = [
    ...new Set(
      (await getData<EarningsRow[]>(request, "/api/calendar/earnings?pageSize=1000")).map((r) => r.ticker),
    ),
  ].filter((t) => !followed.has(t));
  const [fromEarnings, fromSearch] = candidates;
  expect(fromSearch).toBeDefined();
  const deal = (await getData<MaRow[]>(request, "/api/calendar/ma?pageSize=1000")).find(
    (d) => d.target.ticker && !followed.has(d.target.ticker) && d.target.ticker !== fromEarnings,
  );
  expect(deal).toBeDefined();
  const target = deal!.target.ticker!;

  // Count the watchlist requests and the page's key listeners while a table of 100 rows with stars is shown.
  await page.addInitScript(() => {
    const listeners = new Set<unknown>();
    const add = document.addEventListener.bind(document);
    const remove = document.removeEventListener.bind(document);
    document.addEventListener = ((type: string, listener: unknown, options?: unknown) => {
      if (type === "keydown") listeners.add(listener);
      return add(type, listener as EventListener, options as AddEventListenerOptions);
    }) as typeof document.addEventListener;
    document.removeEventListener = ((type: string, listener: unknown, options?: unknown) => {
      if (type === "keydown") listeners.delete(listener);
      return remove(type, listener as EventListener, options as EventListenerOptions);
    }) as typeof document.removeEventListener;
    (window as unknown as { keydownListeners: () => number }).keydownListeners = () => listeners.size;
  });
  let listRequests = 0;
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/watchlists" && r.method() === "GET") listRequests += 1;
  });
  await page.goto(`${origin}/calendar/earnings?range=all&pageSize=100`);
  const stars = page.getByTestId("earnings-row").getByRole("button", { name: /^Follow / });
  await expect(stars.first()).toBeEnabled();
  expect(await stars.count()).toBeGreaterThan(20);
  expect(listRequests).toBe(1);
  const keydown = await page.evaluate(() =>
    (window as unknown as { keydownListeners: () => number }).keydownListeners(),
  );
  expect(keydown).toBeLessThan(10);

  // From an earnings row.
  await page.goto(`${origin}/calendar/earnings?range=all&tickers=${fromEarnings}`);
  const star = page
    .getByTestId("earnings-row")
    .first()
    .getByRole("button", { name: `Follow ${fromEarnings}` });
  await expect(star).toHaveAttribute("aria-pressed", "false");
  await expect(star).toBeEnabled();
  await star.click();
  await expect(star).toHaveAttribute("aria-pressed", "true");
  await expect.poll(async () => (await watchlists(request))[0]!.tickers).toContain(fromEarnings);

  // From a deal's target on the M&A calendar.
  await page.goto(`${origin}/calendar/ma?range=all&tickers=${target}`);
  const targetStar = page
    .getByTestId("ma-row")
    .first()
    .getByRole("button", { name: `Follow ${target}`, exact: true });
  await expect(targetStar).toHaveAttribute("aria-pressed", "false");
  await targetStar.click();
  await expect(targetStar).toHaveAttribute("aria-pressed", "true");
  await expect.poll(async () => (await watchlists(request))[0]!.tickers).toContain(target);

  // From the ticker search, by keyboard: Tab reaches the highlighted result's star; Enter on a result still opens it.
  const search = page.getByRole("combobox", { name: "Search tickers" });
  await search.fill(fromSearch!);
  const options = page.getByRole("listbox", { name: "Search tickers" }).getByRole("option");
  // The company's own option, once the matches are in (the transcript search option comes at once).
  const tickerOf = () =>
    options.evaluateAll((lis) =>
      lis.map((li) => (li.getAttribute("data-testid") ? "" : (li.querySelector("span")?.textContent ?? ""))),
    );
  await expect.poll(async () => (await tickerOf()).includes(fromSearch!)).toBe(true);
  const index = (await tickerOf()).indexOf(fromSearch!);
  for (let i = 0; i < index; i++) await search.press("ArrowDown");
  await expect(options.nth(index)).toHaveAttribute("aria-selected", "true");
  await search.press("Tab");
  const searchStar = page.getByRole("button", { name: `Follow ${fromSearch}`, exact: true });
  await expect(searchStar).toBeFocused();
  await expect(searchStar).toHaveAttribute("aria-pressed", "false");
  await page.keyboard.press("Enter");
  await expect(searchStar).toHaveAttribute("aria-pressed", "true");
  await expect.poll(async () => (await watchlists(request))[0]!.tickers).toContain(fromSearch);
  await page.keyboard.press("Escape");
  await expect(search).toBeFocused();
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/companies/${fromSearch}$`));

  const after = await watchlists(request);
  expect(after[0]!.id).toBe(first!.id);
  expect(after[0]!.tickers).toEqual(expect.arrayContaining([fromEarnings, target, fromSearch]));
});

test("a company followed from its live board tile joins the first watchlist, and the tile still opens the call", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // This instance's own embedded service (the launcher prints where it listens): its control API starts a call.
  const embedded = /embedded market-data service at (http:\/\/\S+)/.exec(output.join(""))?.[1];
  expect(embedded).toBeDefined();
  const followed = new Set((await watchlists(request)).flatMap((l) => l.tickers));
  const symbol = [
    ...new Set(
      (await getData<EarningsRow[]>(request, "/api/calendar/earnings?pageSize=1000")).map((r) => r.ticker),
    ),
  ].find((t) => !followed.has(t))!;
  const started = await fetch(`${embedded}/__embedded/calls`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ symbol, durationSeconds: 60 }),
  });
  expect(started.status).toBe(200);
  const { call_id: callId } = (await started.json()) as { call_id: string };

  await page.goto(`${origin}/live`);
  const tile = page.locator(`[data-testid="live-tile"][data-call-id="${callId}"]`);
  await expect(tile).toBeVisible({ timeout: 30_000 });
  const star = tile.getByRole("button", { name: `Follow ${symbol}`, exact: true });
  await expect(star).toHaveAttribute("aria-pressed", "false");
  await expect(star).toBeEnabled();
  await star.click();
  await expect(star).toHaveAttribute("aria-pressed", "true");
  await expect.poll(async () => (await watchlists(request))[0]!.tickers).toContain(symbol);
  // The star sits above the tile's stretched link: following did not open the call.
  await expect(page).toHaveURL(`${origin}/live`);
  await tile.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/calls/${callId}$`));
  await fetch(`${embedded}/__embedded/calls/${callId}/end`, { method: "POST" });
});
