// The demo's content is a pure function of the seed and the clock (docs/embedded-history.md, "Determinism"). This
// fingerprint pins it down byte for byte, so a change meant to move code (issue 24: one PRNG, the sector table as
// data, the script generator by section, one Eastern-time conversion) cannot change what the service says unnoticed.
// A change meant to change the content updates the digests below, and says so in its commit.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_SEED } from "../config";
import { CallStore } from "../live/call-store";
import { createEnricher } from "../live/enrichment/index";
import { recordsForLiveCall } from "../live/live-calls";
import { planTimeline } from "../live/planned-timeline";
import { generateScript } from "../live/script/generate";
import { buildUniverse, internalsOf } from "../universe/index";

const NOW = Date.parse("2026-11-27T15:00:00Z");
const universe = buildUniverse(DEFAULT_SEED);
const digest = (value: unknown) =>
  createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);

const never = () => {
  throw new Error("no audio here");
};
const store = new CallStore({
  universe,
  speech: never,
  createTrack: never,
  enricher: createEnricher(),
  now: () => NOW,
  enrichDelayMs: 20_000,
  historyCallSeconds: 600,
  audioCacheSize: 1,
});

describe("the demo's content, byte for byte", () => {
  it("the universe: companies, earnings and M&A calendars, fundamentals", () => {
    const internals = internalsOf(universe);
    expect({
      companies: digest(universe.companies),
      earnings: digest(universe.earningsRecords(new Date(NOW))),
      ma: digest(universe.maRecords(new Date(NOW))),
      models: digest(internals.models.slice(0, 12).map((m) => m.quarters.slice(20, 40))),
      fundamentals: digest(universe.companies.slice(0, 6).map((c) => internals.fundamentalsOf(c))),
    }).toEqual({
      companies: "8950f834cfdd739d",
      earnings: "37c080cffd55f977",
      ma: "3b0c62ece06401c0",
      models: "ee22550c79bd6ee2",
      fundamentals: "4a9757fbde2f6d64",
    });
  });

  it("the history of calls: scripts and planned timelines", () => {
    const all = store.historicalCalls(NOW);
    expect(all.length).toBeGreaterThan(600);
    // Every fourth call: a few hundred scripts cover every sector and every kind of quarter.
    const entries = all.filter((_, i) => i % 4 === 0);
    const scripts = entries.map((e) => store.scriptFor(e));
    const plans = entries.map((e, i) => planTimeline(scripts[i]!, e.startTime.getTime()).sentences);
    expect({ scripts: digest(scripts), plans: digest(plans) }).toEqual({
      scripts: "f0351e93c5d17120",
      plans: "1e31949be14d10a1",
    });
  });

  it("live calls of every length, from ten seconds to an hour", () => {
    const records = universe.earningsRecords(new Date(NOW));
    const scripts = universe.companies.slice(0, 40).flatMap((company, i) => {
      const picked = recordsForLiveCall(records, company.symbol, (r, step) =>
        store.adjacentRecordOf(r, step, NOW),
      )!;
      return [10, 25, 45, 90, 300, 720, 3600].map((targetSeconds) =>
        generateScript({
          callId: `${String(i).padStart(4, "0")}${targetSeconds}`.padEnd(24, "0"),
          company,
          record: picked.record,
          nextRecord: picked.next,
          previousRecord: picked.previous,
          startTime: new Date(NOW + i * 600_000),
          targetSeconds,
          seed: DEFAULT_SEED,
        }),
      );
    });
    expect(digest(scripts)).toBe("6e4c2c946db46440");
  });
});
