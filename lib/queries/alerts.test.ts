import { describe, expect, it } from "vitest";
import type { Alert, AlertList } from "@/lib/schemas/alerts";
import { alertQueries } from "./alerts";

const alert = (id: string): Alert => ({
  id,
  ruleId: "1",
  kind: "keyword",
  rules: [{ ruleId: "1", kind: "keyword", label: "“x”", matched: [], detail: null }],
  callId: "c".repeat(24),
  symbol: "NWSC",
  sequence: Number(id),
  startMs: 0,
  text: `Alert ${id}`,
  firedAt: "2026-11-24T20:00:00.000Z",
  read: false,
});
const page = (...ids: string[]): AlertList => ({ data: ids.map(alert), unread: ids.length });

describe("the inbox's pages", () => {
  const options = alertQueries.inboxPages(3);
  const next = (last: AlertList) => options.getNextPageParam(last, [last], null, [null]);

  it("asks for older alerts before the oldest one shown while pages come back full", () => {
    expect(next(page("9", "8", "7"))).toBe("7");
  });

  it("stops at a page that is not full: there is nothing older", () => {
    expect(next(page("2", "1"))).toBeNull();
    expect(next(page())).toBeNull();
  });

  it("starts at the newest and shares the inbox's key, so a new alert refreshes it", () => {
    expect(options.initialPageParam).toBeNull();
    expect(options.queryKey.slice(0, 2)).toEqual([...alertQueries.all(), "inbox"]);
  });
});
