import { expect, test } from "@playwright/test";

test.describe("earnings calendar", () => {
  test("an analyst filters the calendar by importance and dates, and the shared URL reproduces the view", async ({
    page,
  }) => {
    await page.goto("/calendar/earnings");
    await expect(page.getByRole("heading", { name: "Earnings calendar" })).toBeVisible();
    // Filters respond once the page has hydrated and loaded its first view.
    await expect(page.getByText(/refreshes every 60 s/)).toBeVisible();

    await page.getByLabel("Dates", { exact: true }).selectOption("custom");
    await page.getByLabel("From", { exact: true }).fill("2025-10-01");
    await page.getByLabel("To", { exact: true }).fill("2025-12-31");
    await page.getByLabel("Importance", { exact: true }).selectOption("4");

    await expect(page).toHaveURL(/range=custom/);
    await expect(page).toHaveURL(/from=2025-10-01/);
    await expect(page).toHaveURL(/to=2025-12-31/);
    await expect(page).toHaveURL(/importance=4/);

    const rows = page.getByTestId("earnings-row");
    // The previous view stays on screen while the filtered one loads: wait until every visible row is important
    // enough (five pips, four or more filled) and the load has finished, then read the first ticker.
    await expect(async () => {
      const importances = await rows.getByText(/Importance \d of 5/).allTextContents();
      expect(importances.length).toBeGreaterThan(0);
      for (const text of importances)
        expect(Number(/Importance (\d)/.exec(text)?.[1])).toBeGreaterThanOrEqual(4);
    }).toPass();
    await expect(page.getByText(/refreshes every 60 s/)).toBeVisible();
    const firstTicker = await rows.first().getByRole("link").first().textContent();

    const shared = page.url();
    await page.goto("about:blank");
    await page.goto(shared);
    await expect(page.getByLabel("Dates", { exact: true })).toHaveValue("custom");
    await expect(page.getByLabel("From", { exact: true })).toHaveValue("2025-10-01");
    await expect(page.getByLabel("Importance", { exact: true })).toHaveValue("4");
    await expect(page.getByTestId("earnings-row").first().getByRole("link").first()).toHaveText(
      firstTicker ?? "",
    );
  });

  test("a company opens from the calendar", async ({ page }) => {
    await page.goto("/calendar/earnings?range=all");
    const link = page.getByTestId("earnings-row").first().getByRole("link").first();
    await expect(link).toBeVisible();
    const ticker = (await link.textContent())?.trim() ?? "";
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/companies/${ticker}$`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Valuation ratios" })).toBeVisible();
  });

  test("j and k move through rows and Enter opens the company", async ({ page }) => {
    await page.goto("/calendar/earnings?range=all");
    await expect(page.getByTestId("earnings-row").first()).toBeVisible();
    await page.locator("body").click({ position: { x: 5, y: 300 } });
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    const active = page.locator('[data-testid="earnings-row"][data-active="true"]');
    await expect(active).toHaveAttribute("aria-rowindex", "3");
    await page.keyboard.press("k");
    await expect(active).toHaveAttribute("aria-rowindex", "2");
    const ticker = (await active.getByRole("link").first().textContent())?.trim() ?? "";
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/companies/${ticker}$`));
  });
});
