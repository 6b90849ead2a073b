import { describe, expect, it } from "vitest";
import type { Consensus, ConsensusRecord } from "@/lib/schemas/insights";
import { createGuidanceDescriber } from "./guidance-detail";
import type { AlertCandidate } from "./rules";

const record = (over: Partial<ConsensusRecord>): ConsensusRecord => ({
  period: "Q4",
  periodYear: 2026,
  date: "2027-02-01",
  epsType: "Adj",
  epsEst: null,
  eps: null,
  epsSurprisePercent: null,
  revenueEst: null,
  revenue: null,
  revenueSurprisePercent: null,
  ...over,
});

const candidate = (text: string): AlertCandidate => ({
  userId: "ann",
  subject: "c".repeat(24),
  callId: "c".repeat(24),
  symbol: "NWSC",
  sequence: 40,
  startMs: 600_000,
  text,
  rules: [{ ruleId: "1", kind: "guidance", label: "Guidance", matched: ["we expect"], detail: null }],
});

describe("createGuidanceDescriber", () => {
  const consensus: Consensus = { current: null, next: record({ revenueEst: 4.2e9 }) };
  const asked: string[] = [];
  const describeGuidance = createGuidanceDescriber({
    consensusFor: async (callId) => (asked.push(callId), consensus),
  });

  it("says a guidance figure against next quarter's consensus, as the Figures panel does", async () => {
    const detail = await describeGuidance(
      candidate("For the fourth quarter, we expect revenue of $4.1 billion to $4.2 billion."),
    );
    expect(detail).toMatch(/^guides revenue \$4\.10B – \$4\.20B, 1\.2% below consensus \$4\.20B$/);
    expect(asked).toEqual(["c".repeat(24)]);
  });

  it("says nothing, and asks for no consensus, when the sentence states no guidance figure", async () => {
    asked.length = 0;
    expect(await describeGuidance(candidate("Turning to our outlook."))).toBeNull();
    expect(asked).toEqual([]);
  });
});
