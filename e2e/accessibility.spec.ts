import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

const PAGES = ["/", "/calendar/earnings?range=all", "/calendar/ma", "/compare", "/companies/ZZZZQ"];

async function firstTicker(request: import("@playwright/test").APIRequestContext): Promise<string> {
  const body = (await (await request.get("/api/calendar/earnings?pageSize=5&importance=3")).json()) as {
    data: { ticker: string }[];
  };
  return body.data[0]!.ticker;
}

for (const theme of ["light", "dark"] as const) {
  test.describe(`${theme} theme`, () => {
    test.use({ colorScheme: theme });

    for (const path of PAGES) {
      test(`${path} has no serious or critical accessibility violation`, async ({ page }) => {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        const results = await new AxeBuilder({ page }).analyze();
        const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
        expect(
          bad.map(
            (v) =>
              `${v.id}: ${v.nodes
                .map((n) => n.target.join(" "))
                .slice(0, 3)
                .join(" | ")}`,
          ),
        ).toEqual([]);
      });
    }

    test("a company page has no serious or critical accessibility violation", async ({ page, request }) => {
      const ticker = await firstTicker(request);
      await page.goto(`/companies/${ticker}`);
      await page.waitForLoadState("networkidle");
      const results = await new AxeBuilder({ page }).analyze();
      const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(
        bad.map(
          (v) =>
            `${v.id}: ${v.nodes
              .map((n) => n.target.join(" "))
              .slice(0, 3)
              .join(" | ")}`,
        ),
      ).toEqual([]);
    });

    test("a comparison has no serious or critical accessibility violation", async ({ page, request }) => {
      const body = (await (await request.get("/api/calendar/earnings?pageSize=50&importance=3")).json()) as {
        data: { ticker: string }[];
      };
      const tickers = [...new Set(body.data.map((r) => r.ticker))].slice(0, 3);
      await page.goto(`/compare?symbols=${tickers.join(",")}`);
      await page.waitForLoadState("networkidle");
      const results = await new AxeBuilder({ page }).analyze();
      const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(
        bad.map(
          (v) =>
            `${v.id}: ${v.nodes
              .map((n) => n.target.join(" "))
              .slice(0, 3)
              .join(" | ")}`,
        ),
      ).toEqual([]);
    });
  });
}
