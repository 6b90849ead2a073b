import { describe, expect, it } from "vitest";
import { testCompany, testRecord } from "../../test/fixtures/companies";
import { formatMoney, formatPercent, formatPerShare } from "./figures";
import { generateScript } from "./generate";
import { estimateSpeechSeconds } from "./lines";
import { toneOf } from "./record-figures";

const input = (overrides: Partial<Parameters<typeof generateScript>[0]> = {}) => ({
  callId: "0123456789abcdef01234567",
  company: testCompany(),
  record: testRecord(),
  nextRecord: testRecord({
    period: "Q4",
    eps: "",
    revenue: "",
    eps_est: "2.050",
    revenue_est: "4400000000.000",
  }),
  startTime: new Date("2026-10-28T21:00:00Z"),
  targetSeconds: 720,
  ...overrides,
});

describe("generateScript", () => {
  it("is deterministic by call_id and varies with it", () => {
    expect(generateScript(input())).toEqual(generateScript(input()));
    const other = generateScript(input({ callId: "fedcba9876543210fedcba98" }));
    expect(other.sentences.map((s) => s.text)).not.toEqual(
      generateScript(input()).sentences.map((s) => s.text),
    );
  });

  it("states the calendar's EPS and revenue in transcript form, with the full structure", () => {
    const script = generateScript(input());
    const text = script.sentences.map((s) => s.text).join(" ");
    expect(text).toContain("$1.99");
    expect(text).toContain("$4.21 billion");
    expect(script.title).toBe("Q3 2026 Northwind Semiconductor (NWSC) Earnings Conference Call");
    const sections = new Set(script.sentences.map((s) => s.section));
    for (const s of ["intro", "safe_harbor", "ceo", "cfo", "guidance", "qa", "close"])
      expect(sections.has(s as never)).toBe(true);
    expect(script.sentences[0]?.speakerLabel).toBe("OPERATOR");
    expect(script.sentences.at(-1)?.speakerLabel).toBe("OPERATOR");
    const analysts = script.speakers.filter((s) => s.role === "Analyst");
    expect(analysts.length).toBeGreaterThanOrEqual(2);
    expect(analysts.length).toBeLessThanOrEqual(5);
    expect(script.speakers.every((s) => /^(OPERATOR|SPEAKER_\d+)$/.test(s.label))).toBe(true);
    expect(script.sentences[script.closeIndex]?.text).toMatch(/concludes/);
  });

  it("sounds different on a miss and scales with the duration", () => {
    const miss = testRecord({ eps: "1.600", eps_surprise_percent: "-0.135" });
    expect(toneOf(miss)).toBe("miss");
    expect(toneOf(testRecord())).toBe("beat");
    const missText = generateScript(input({ record: miss }))
      .sentences.map((s) => s.text)
      .join(" ");
    expect(missText).toMatch(/disappointing|fell short|headwinds|below our/);
    const seconds = (t: number) =>
      generateScript(input({ targetSeconds: t })).sentences.reduce(
        (s, x) => s + estimateSpeechSeconds(x.text),
        0,
      );
    expect(seconds(20)).toBeLessThan(40);
    expect(seconds(240)).toBeLessThan(seconds(720));
    expect(seconds(720)).toBeGreaterThan(400);
  });

  it("writes figures in digits", () => {
    expect(formatMoney(4_213_000_000)).toBe("$4.21 billion");
    expect(formatMoney(12_000_000_000)).toBe("$12 billion");
    expect(formatMoney(812_400_000)).toBe("$812 million");
    expect(formatPerShare(-0.4)).toBe("$0.40");
    expect(formatPercent(12.3)).toBe("12%");
    expect(formatPercent(4.46)).toBe("4.5%");
  });
});
