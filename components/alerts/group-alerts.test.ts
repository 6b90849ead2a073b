import { describe, expect, it } from "vitest";
import type { Alert } from "@/lib/schemas/alerts";
import { groupByCall } from "./group-alerts";

const alert = (id: string, callId: string | null, symbol: string, read = false): Alert => ({
  id,
  ruleId: "1",
  kind: callId ? "keyword" : "results",
  rules: [{ ruleId: "1", kind: "keyword", label: "x", matched: [], detail: null }],
  callId,
  symbol,
  sequence: callId ? Number(id) : null,
  startMs: 0,
  text: id,
  firedAt: "2026-11-27T03:00:00.000Z",
  read,
});

describe("groupByCall", () => {
  it("groups by call in the order of each call's newest alert, counting unread, results by company", () => {
    const groups = groupByCall([
      alert("9", "c2", "BBB"),
      alert("8", "c1", "AAA", true),
      alert("7", "c2", "BBB", true),
      alert("6", null, "AAA"),
      alert("5", "c1", "AAA"),
    ]);
    expect(groups.map((g) => [g.key, g.alerts.map((a) => a.id), g.unread])).toEqual([
      ["call:c2", ["9", "7"], 1],
      ["call:c1", ["8", "5"], 1],
      ["results:AAA", ["6"], 1],
    ]);
  });
});
