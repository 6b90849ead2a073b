import { describe, expect, it } from "vitest";
import { computeInsights } from "@/lib/insights/engine";
import { CURRENT_CALL } from "@/test/fixtures/insights/calls";
import { catchUpCount, catchUpItems, readSeen, writeSeen } from "./catch-up-items";

describe("catchUpItems", () => {
  const insights = computeInsights({ sentences: CURRENT_CALL, isComplete: false }, null);

  it("lists only what was said after the reader left", () => {
    const all = catchUpItems(insights, -1);
    const later = catchUpItems(insights, 6);
    expect(all.figures.length).toBeGreaterThan(later.figures.length);
    expect(later.figures.every((f) => f.sequence > 6)).toBe(true);
    expect(later.questions.map((q) => q.analyst)).toEqual(["Jane Doe", "Tom Okafor"]);
    expect(catchUpCount(catchUpItems(insights, CURRENT_CALL.length))).toBe(0);
  });

  it("includes the reader's alerts on this call's later sentences", () => {
    const alert = (id: string, callId: string, sequence: number | null) => ({
      id,
      ruleId: "r",
      kind: "keyword" as const,
      rules: [{ ruleId: "r", kind: "keyword" as const, label: "“x”", matched: [], detail: null }],
      callId,
      symbol: "EX",
      sequence,
      startMs: sequence === null ? null : sequence * 5000,
      text: "tariffs",
      firedAt: "2026-11-24T12:00:00Z",
      read: false,
    });
    const items = catchUpItems(
      insights,
      6,
      [alert("a", "this", 3), alert("b", "this", 9), alert("c", "other", 9), alert("d", "this", null)],
      "this",
    );
    expect(items.alerts.map((a) => a.id)).toEqual(["b"]);
  });

  it("remembers the last sentence seen per call", () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
    };
    expect(readSeen("abc", storage)).toBeNull();
    writeSeen("abc", 41, storage);
    expect(readSeen("abc", storage)).toBe(41);
    expect(readSeen("other", storage)).toBeNull();
  });
});
