import { expect, test } from "@playwright/test";

async function twoTickers(request: import("@playwright/test").APIRequestContext): Promise<[string, string]> {
  const response = await request.get("/api/calendar/earnings?pageSize=50&importance=3");
  const body = (await response.json()) as { data: { ticker: string }[] };
  const tickers = [...new Set(body.data.map((r) => r.ticker))];
  expect(tickers.length).toBeGreaterThanOrEqual(2);
  return [tickers[0]!, tickers[1]!];
}

test("an unknown ticker answers 404 with a clear page", async ({ page }) => {
  const response = await page.goto("/companies/ZZZZQ");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "No company with that ticker" })).toBeVisible();
});

test("comparing two companies shows their key ratios side by side and a chart of one", async ({
  page,
  request,
}) => {
  const [a, b] = await twoTickers(request);
  await page.goto(`/compare?symbols=${a}`);
  await expect(page.getByText(/Add 1 more company/)).toBeVisible();

  const add = page.getByRole("combobox", { name: "Add a company to compare" });
  await add.fill(b);
  await expect(page.getByRole("option").first()).toBeVisible();
  await add.press("Enter");

  await expect(page).toHaveURL(new RegExp(`symbols=${a}(,|%2C)${b}`));
  const table = page.getByTestId("compare-table");
  await expect(table.getByRole("columnheader", { name: new RegExp(a) })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: new RegExp(b) })).toBeVisible();
  await expect(table.getByRole("rowheader", { name: "P/E", exact: true })).toBeVisible();
  // Charts load once on screen (components/charts/lazy-charts.tsx): scroll to it as a reader would.
  await page.getByRole("heading", { name: /across companies/ }).scrollIntoViewIfNeeded();
  await expect(page.getByRole("img", { name: new RegExp(`of ${a}, ${b}`) })).toBeVisible();

  await page.getByRole("button", { name: `Remove ${b}` }).click();
  await expect(page).toHaveURL(new RegExp(`symbols=${a}$`));
});

test("the ticker search opens a company with the keyboard", async ({ page, request }) => {
  const [a] = await twoTickers(request);
  await page.goto("/");
  const search = page.getByRole("combobox", { name: "Search tickers" });
  // The shortcut exists once the page has hydrated; keep pressing until it does.
  await expect(async () => {
    await page.keyboard.press("/");
    await expect(search).toBeFocused({ timeout: 500 });
  }).toPass();
  await search.fill(a);
  await expect(page.getByRole("option").first()).toBeVisible();
  await search.press("ArrowDown");
  await search.press("ArrowUp");
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/companies/${a}$`));
});
