import { describe, expect, it } from "vitest";
import type { PagedEnvelope } from "@/lib/schemas/envelope";
import { mergeUpdatedRows } from "./calendar";

type Row = { id: string; date: string; v: number };
const compare = (a: Row, b: Row) => a.date.localeCompare(b.date);
const page = (data: Row[], hasMore = false, pageNo = 0): PagedEnvelope<Row> => ({
  data,
  meta: { fetchedAt: "2025-01-01T00:00:00Z", stale: false, page: pageNo, pageSize: 100, hasMore },
});

describe("mergeUpdatedRows", () => {
  it("replaces changed rows in place and keeps their position", () => {
    const before = page([
      { id: "a", date: "2025-01-02", v: 1 },
      { id: "b", date: "2025-01-03", v: 1 },
    ]);
    const after = mergeUpdatedRows(
      before,
      [{ id: "a", date: "2025-01-02", v: 2 }],
      compare,
      "2025-01-01T00:01:00Z",
    );
    expect(after.data.map((r) => [r.id, r.v])).toEqual([
      ["a", 2],
      ["b", 1],
    ]);
    expect(after.meta.fetchedAt).toBe("2025-01-01T00:01:00Z");
  });
  it("adds new rows in sort order when the page is the whole result", () => {
    const before = page([{ id: "a", date: "2025-01-02", v: 1 }]);
    const after = mergeUpdatedRows(before, [{ id: "n", date: "2025-01-01", v: 1 }], compare, "t");
    expect(after.data.map((r) => r.id)).toEqual(["n", "a"]);
  });
  it("does not guess where a new row belongs on a partial page", () => {
    const before = page([{ id: "a", date: "2025-01-02", v: 1 }], true);
    const after = mergeUpdatedRows(before, [{ id: "n", date: "2025-01-01", v: 1 }], compare, "t");
    expect(after.data.map((r) => r.id)).toEqual(["a"]);
  });
  it("returns the same object when nothing changed", () => {
    const before = page([]);
    expect(mergeUpdatedRows(before, [], compare, "t")).toBe(before);
  });
});
