import { describe, expect, it } from "vitest";
import type { SentenceEvent } from "@/lib/schemas/live";
import { AlertEvaluator, type EarningsActuals } from "./evaluator";
import type { CompiledRule } from "./rules";

function rule(id: string, over: Partial<CompiledRule>): CompiledRule {
  return {
    id,
    userId: "u1",
    kind: "keyword",
    label: `rule ${id}`,
    phrase: null,
    tickers: null,
    speakerRole: null,
    threshold: null,
    ...over,
  };
}

const CALL = "a".repeat(24);
let seq = 0;
function sentence(text: string, sentiment: number | null = null): SentenceEvent {
  seq += 1;
  return {
    callId: CALL,
    sequence: seq,
    text,
    speaker: "SPEAKER_1",
    startMs: seq * 1000,
    endMs: seq * 1000 + 900,
    confidence: 0.9,
    sentiment,
  };
}

describe("AlertEvaluator", () => {
  it("turns a keyword match into a candidate that names the sentence", () => {
    const ev = new AlertEvaluator([rule("k", { phrase: "tariff", tickers: new Set(["NWSC"]) })]);
    const s = sentence("Tariffs cost us two points of margin.");
    expect(ev.onSentence("nwsc", s)).toEqual([
      {
        userId: "u1",
        subject: CALL,
        callId: CALL,
        symbol: "NWSC",
        sequence: s.sequence,
        startMs: s.startMs,
        text: s.text,
        rules: [{ ruleId: "k", kind: "keyword", label: "rule k", matched: ["Tariffs"], detail: null }],
      },
    ]);
  });

  it("makes one candidate per user for a sentence several of their rules match, naming every rule", () => {
    const ev = new AlertEvaluator([
      rule("tariff", { phrase: "tariff" }),
      rule("margin", { phrase: "gross margin" }),
      rule("down", { kind: "sentiment", threshold: -0.3 }),
      rule("other", { userId: "u2", phrase: "tariffs" }),
    ]);
    ev.onSentence("NWSC", sentence("Weak.", -0.8));
    ev.onSentence("NWSC", sentence("Weaker.", -0.8));
    const s = sentence("Tariffs took a point of gross margin.", -0.8);
    const out = ev.onSentence("NWSC", s);
    expect(out.map((c) => c.userId)).toEqual(["u1", "u2"]);
    expect(out[0]!.text).toBe(s.text);
    expect(out[0]!.rules).toEqual([
      { ruleId: "tariff", kind: "keyword", label: "rule tariff", matched: ["Tariffs"], detail: null },
      { ruleId: "margin", kind: "keyword", label: "rule margin", matched: ["gross margin"], detail: null },
      {
        ruleId: "down",
        kind: "sentiment",
        label: "rule down",
        matched: [],
        detail: "Live sentiment −0.80 crossed −0.30",
      },
    ]);
    expect(out[1]!.rules.map((r) => [r.ruleId, r.matched])).toEqual([["other", ["Tariffs"]]]);
  });

  it("fires call-live rules for followed companies only", () => {
    const ev = new AlertEvaluator([
      rule("live", { kind: "call-live", tickers: new Set(["NWSC"]) }),
      rule("other", { kind: "call-live", tickers: new Set(["ACME"]) }),
    ]);
    const out = ev.onCallStarted({
      callId: CALL,
      symbol: "NWSC",
      name: "Northwind",
      startTime: "2026-11-24T12:00:00Z",
    });
    expect(out.flatMap((c) => c.rules.map((r) => r.ruleId))).toEqual(["live"]);
    expect(out[0]!.text).toBe("Northwind (NWSC) is live");
  });

  it("fires a sentiment rule when the rolling estimate crosses its threshold, and not again while it stays beyond", () => {
    const ev = new AlertEvaluator([
      rule("down", { kind: "sentiment", threshold: -0.3 }),
      rule("up", { kind: "sentiment", threshold: 0.5 }),
    ]);
    const fired = (text: string, score: number) =>
      ev.onSentence("NWSC", sentence(text, score)).flatMap((c) => c.rules.map((r) => r.ruleId));
    // Warm-up: a single very negative sentence does not fire.
    expect(fired("Demand collapsed.", -0.9)).toEqual([]);
    expect(fired("Fine.", 0)).toEqual([]);
    // Third scored sentence: mean (−0.9 + 0 − 0.6) / 3 = −0.5 ≤ −0.3.
    expect(fired("Worse.", -0.6)).toEqual(["down"]);
    expect(fired("Still bad.", -0.5)).toEqual([]);
  });

  it("re-fires a sentiment rule after the estimate returns across its threshold", () => {
    const ev = new AlertEvaluator([rule("down", { kind: "sentiment", threshold: -0.3 })]);
    const all: string[] = [];
    const push = (score: number) =>
      all.push(...ev.onSentence("NWSC", sentence("x", score)).flatMap((c) => c.rules.map((r) => r.ruleId)));
    for (let i = 0; i < 3; i++) push(-0.8);
    expect(all).toEqual(["down"]);
    for (let i = 0; i < 12; i++) push(0.5);
    for (let i = 0; i < 12; i++) push(-0.8);
    expect(all).toEqual(["down", "down"]);
  });

  it("fires a results rule for a record with actuals in scope", () => {
    const ev = new AlertEvaluator([rule("res", { kind: "results", tickers: new Set(["NWSC"]) })]);
    const base: EarningsActuals = {
      id: "e1",
      symbol: "NWSC",
      name: "Northwind",
      period: "Q3",
      periodYear: 2026,
      eps: null,
      epsEst: 1.1,
      revenue: null,
      revenueEst: 2e9,
    };
    expect(ev.onEarnings([base])).toEqual([]);
    expect(ev.onEarnings([{ ...base, symbol: "ACME", eps: 1 }])).toEqual([]);
    const [c] = ev.onEarnings([{ ...base, eps: 1.23, revenue: 2.1e9 }]);
    expect(c).toMatchObject({ subject: "earnings:e1", callId: null, symbol: "NWSC" });
    expect(c!.rules.map((r) => r.ruleId)).toEqual(["res"]);
    expect(c!.text).toBe(
      "Northwind (NWSC) Q3 2026 results: EPS 1.23 vs 1.10 est., revenue $2.10B vs $2.00B est.",
    );
  });

  it("fires a sentiment rule added while the estimate is already beyond it at the next crossing, not at once", () => {
    const first = new AlertEvaluator([]);
    for (let i = 0; i < 3; i++) first.onSentence("NWSC", sentence("x", -0.8));
    const next = first.withRules([rule("down", { kind: "sentiment", threshold: -0.3 })]);
    const fired = (score: number) =>
      next.onSentence("NWSC", sentence("x", score)).flatMap((c) => c.rules.map((r) => r.ruleId));
    expect(fired(-0.8)).toEqual([]);
    // Back above −0.3 (the window is 12 sentences), then down through it again.
    const after: string[] = [];
    for (let i = 0; i < 12; i++) after.push(...fired(0.6));
    expect(after).toEqual([]);
    for (let i = 0; i < 12; i++) after.push(...fired(-0.9));
    expect(after).toEqual(["down"]);
  });

  it("checks each sentiment rule against its own scope: every call, or the call's ticker", () => {
    const ev = new AlertEvaluator([
      rule("everywhere", { kind: "sentiment", threshold: -0.3 }),
      rule("here", { kind: "sentiment", threshold: -0.3, tickers: new Set(["NWSC"]) }),
      rule("elsewhere", { kind: "sentiment", threshold: -0.3, tickers: new Set(["ACME"]) }),
    ]);
    const all: string[] = [];
    for (let i = 0; i < 3; i++)
      all.push(...ev.onSentence("nwsc", sentence("x", -0.8)).flatMap((c) => c.rules.map((r) => r.ruleId)));
    expect(all.sort()).toEqual(["everywhere", "here"]);
  });

  it("keeps the sentiment state of a call when the rules change", () => {
    const first = new AlertEvaluator([rule("down", { kind: "sentiment", threshold: -0.3 })]);
    first.onSentence("NWSC", sentence("x", -0.8));
    first.onSentence("NWSC", sentence("x", -0.8));
    const next = first.withRules([rule("down", { kind: "sentiment", threshold: -0.3 })]);
    expect(next.onSentence("NWSC", sentence("x", -0.8)).flatMap((c) => c.rules.map((r) => r.ruleId))).toEqual(
      ["down"],
    );
  });

  describe("guidance rules (the insights' classifier)", () => {
    const CALL_G = "b".repeat(24);
    let n = 0;
    const say = (speaker: string, text: string): SentenceEvent => {
      n += 1;
      return {
        callId: CALL_G,
        sequence: n,
        text,
        speaker,
        startMs: n * 1000,
        endMs: n * 1000 + 900,
        confidence: 1,
      };
    };
    /** A call as it goes: prepared remarks, then a Q&A with an analyst introduced; which sentences fire. */
    function fired(lines: [string, string][]): string[] {
      const ev = new AlertEvaluator([rule("g", { kind: "guidance", tickers: new Set(["NWSC"]) })]);
      return lines
        .filter(([speaker, text]) => ev.onSentence("NWSC", say(speaker, text)).length > 0)
        .map(([, t]) => t);
    }

    it("fires on management's forward-looking statements, naming the words that make them guidance", () => {
      const ev = new AlertEvaluator([rule("g", { kind: "guidance" })]);
      const [candidate] = ev.onSentence(
        "NWSC",
        say("SPEAKER_2", "For the fourth quarter, we expect revenue of $4.3 billion to $4.5 billion."),
      );
      expect(candidate?.rules).toEqual([
        expect.objectContaining({
          ruleId: "g",
          kind: "guidance",
          matched: ["expect", "$4.3 billion to $4.5 billion"],
        }),
      ]);
    });

    it("never fires on a question, an operator line, a transition or a look back", () => {
      expect(
        fired([
          ["OPERATOR", "Welcome to the Northwind third quarter earnings call."],
          ["SPEAKER_1", "Revenue was $4.2 billion, better than we expected."],
          ["SPEAKER_1", "Turning to our outlook."],
          ["SPEAKER_1", "We are raising our full-year guidance to $17 billion to $17.4 billion."],
          ["SPEAKER_1", "We continue to expect operating margin of about 21% for the year."],
          ["SPEAKER_1", "Gross margin came in above the high end of our guidance range."],
          ["OPERATOR", "Our first question comes from Jane Doe with Morgan Stanley. Your line is open."],
          ["SPEAKER_3", "Thanks. What do you expect for margins next year?"],
          ["SPEAKER_3", "And I wonder whether your outlook assumes any price increases."],
          ["SPEAKER_1", "We expect margins to expand again next year as pricing holds."],
          [
            "OPERATOR",
            "Our outlook statements are subject to risks; the next question comes from Tom Okafor with Halden.",
          ],
        ]),
      ).toEqual([
        "We are raising our full-year guidance to $17 billion to $17.4 billion.",
        "We continue to expect operating margin of about 21% for the year.",
        "We expect margins to expand again next year as pricing holds.",
      ]);
    });

    it("stays out of other tickers' calls", () => {
      const ev = new AlertEvaluator([rule("g", { kind: "guidance", tickers: new Set(["NWSC"]) })]);
      expect(
        ev.onSentence("ACME", say("SPEAKER_1", "We now expect revenue of $5 billion for the year.")),
      ).toEqual([]);
    });
  });
});
