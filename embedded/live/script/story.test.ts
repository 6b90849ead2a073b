import { describe, expect, it } from "vitest";
import { testCompany, testRecord } from "../../test/fixtures/companies";
import { sectorProfileFor } from "./sectors";
import {
  analystRoster,
  buildQuarterStory,
  cfoAt,
  guidanceFor,
  INTENSITY_WORDS,
  quarterOrdinal,
  roundAsSpoken,
} from "./story";

const company = testCompany();
const profile = sectorProfileFor(company.sector, company.industryGroup, company.industry);

describe("quarter story", () => {
  it("keeps three to six analysts per company, firms shared across companies", () => {
    const firms = new Map<string, number>();
    for (let i = 0; i < 60; i++) {
      const roster = analystRoster(
        7,
        testCompany({ symbol: `T${i}`, sector: i % 2 ? "Technology" : "Energy" }),
      );
      expect(roster.length).toBeGreaterThanOrEqual(3);
      expect(roster.length).toBeLessThanOrEqual(6);
      expect(new Set(roster.map((a) => a.firm)).size).toBe(roster.length);
      for (const a of roster) firms.set(a.firm, (firms.get(a.firm) ?? 0) + 1);
    }
    expect(Math.max(...firms.values())).toBeGreaterThanOrEqual(15);
    expect(analystRoster(7, company)).toEqual(analystRoster(7, company));
  });

  it("guides the next quarter within ±5 % of its estimates, in amounts as they are said", () => {
    for (let k = 0; k < 300; k++) {
      const revenueEst = 3e6 * 1.7 ** (k % 20) + k * 12_345;
      const epsEst = 0.4 + (k % 37) * 0.23;
      const record = testRecord({ period: "Q1", period_year: 2000 + k });
      const next = testRecord({
        period: "Q2",
        period_year: 2000 + k,
        revenue_est: revenueEst.toFixed(3),
        eps_est: epsEst.toFixed(3),
      });
      const g = guidanceFor(k, company.symbol, record, next);
      expect(g).not.toBeNull();
      if (!g) continue;
      expect(Math.abs((g.revenueLow + g.revenueHigh) / 2 / revenueEst - 1)).toBeLessThanOrEqual(0.05);
      expect(roundAsSpoken(g.revenueLow)).toBe(g.revenueLow);
      expect(g.revenueLow).toBeLessThan(g.revenueHigh);
      if (g.epsLow !== null && g.epsHigh !== null) {
        expect(Math.abs((g.epsLow + g.epsHigh) / 2 / epsEst - 1)).toBeLessThanOrEqual(0.05);
        expect(g.epsLow).toBeLessThan(g.epsHigh);
      }
    }
  });

  it("announces a CFO change on the outgoing CFO's last call and introduces the successor on the next", () => {
    let found = 0;
    for (let seed = 0; seed < 40 && found < 3; seed++) {
      for (let n = quarterOrdinal("Q1", 2025); n <= quarterOrdinal("Q4", 2026); n++) {
        const year = Math.floor(n / 4);
        const period = `Q${(n % 4) + 1}` as "Q1";
        const story = buildQuarterStory({
          seed,
          company,
          profile,
          record: testRecord({ period, period_year: year }),
          bias: 0,
        });
        if (!story.cfoLeaving) continue;
        found++;
        const nextN = n + 1;
        const following = buildQuarterStory({
          seed,
          company,
          profile,
          record: testRecord({ period: `Q${(nextN % 4) + 1}` as "Q1", period_year: Math.floor(nextN / 4) }),
          bias: 0,
        });
        expect(following.cfo.name).toBe(story.cfoLeaving.incoming.name);
        expect(following.cfoJoined).toBe(true);
        expect(story.cfo.name).not.toBe(following.cfo.name);
      }
    }
    expect(found).toBeGreaterThan(0);
    // The company profile's CFO is the one in office in the reference quarter.
    expect(cfoAt(3, company, quarterOrdinal("Q3", 2026))).toEqual(company.executives.cfo);
  });

  it("moves topic emphasis, risks and segments from quarter to quarter", () => {
    const stories = [1, 2, 3, 4, 5, 6].map((q) =>
      buildQuarterStory({
        seed: 11,
        company,
        profile,
        record: testRecord({
          period: `Q${((q - 1) % 4) + 1}` as "Q1",
          period_year: 2025 + Math.floor((q - 1) / 4),
        }),
        bias: 0,
      }),
    );
    const topics = stories.map((s) => s.topics.map((t) => t.theme.topic).join("|"));
    expect(new Set(topics).size).toBe(1);
    for (const s of stories) for (const t of s.topics) expect(INTENSITY_WORDS).toContain(t.intensity);
    const emphasis = stories.map((s) => s.topics.map((t) => t.intensity).join(","));
    expect(new Set(emphasis).size).toBeGreaterThan(1);
    const shares = stories.map((s) => s.segments.map((x) => x.share.toFixed(3)).join(","));
    expect(new Set(shares).size).toBeGreaterThan(1);
    expect(stories.some((s) => s.risks.some((r) => r.phase === "emerging"))).toBe(true);
  });
});
