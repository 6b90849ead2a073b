import { describe, expect, it } from "vitest";
import { chunk, mergedCalendar } from "./watchlist-calendar";

describe("mergedCalendar", () => {
  it("splits more than 50 tickers into several requests and merges their rows in order", async () => {
    const tickers = Array.from({ length: 120 }, (_, i) => `T${i}`);
    const seen: string[][] = [];
    const result = await mergedCalendar(
      tickers,
      async (part, page) => {
        seen.push(part);
        expect(part.length).toBeLessThanOrEqual(50);
        // Each ticker reports once; the first chunk has a second page.
        const rows = part.map((t) => ({
          id: `${t}-${page}`,
          ticker: t,
          date: `2026-12-${String((Number(t.slice(1)) % 28) + 1).padStart(2, "0")}`,
        }));
        return { rows: page === 0 ? rows : rows.slice(0, 1), hasMore: part[0] === "T0" && page === 0 };
      },
      (a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id),
    );
    expect(seen.map((p) => p.length)).toEqual([50, 50, 20, 50]);
    expect(result.requests).toBe(4);
    expect(result.isTruncated).toBe(false);
    expect(new Set(result.rows.map((r) => r.ticker)).size).toBe(120);
    expect(result.rows.map((r) => r.date)).toEqual([...result.rows.map((r) => r.date)].sort());
  });

  it("says when a chunk had more pages than it read", async () => {
    const result = await mergedCalendar(
      ["AAA"],
      async (_part, page) => ({ rows: [{ id: String(page) }], hasMore: true }),
      (a, b) => a.id.localeCompare(b.id),
      2,
    );
    expect(result).toMatchObject({ rows: [{ id: "0" }, { id: "1" }], isTruncated: true, requests: 2 });
  });

  it("asks nothing for an empty watchlist", async () => {
    expect(
      await mergedCalendar(
        [],
        async () => ({ rows: [], hasMore: false }),
        () => 0,
      ),
    ).toEqual({
      rows: [],
      isTruncated: false,
      requests: 0,
      fetchedAt: null,
      stale: false,
    });
    expect(chunk([1, 2, 3], 2)).toEqual([[1, 2], [3]]);
  });
});
