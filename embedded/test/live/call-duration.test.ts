/**
 * A live call lasts the `durationSeconds` it was asked for (docs/upstream.md §7), whatever the duration from 10 s up: the
 * script is sized to it, a short result is padded with a pause, and the call ends on time. Driven on a fake clock
 * (100 ms ticks, as the live controller does) with the real speech engine, so the timeline is the real audio's.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Company } from "../../universe/types";
import type { WireEarningsRecord } from "../../universe/wire";
import { createCallAudioTrack, createSpeechEngine } from "../../live/audio/index";
import type { SpeechEngine } from "../../live/audio/types";
import { CallRuntime } from "../../live/call";
import type { Enricher } from "../../live/enrichment/types";
import { formatMoney, formatPerShare, parseAmount } from "../../live/script/figures";
import { generateScript } from "../../live/script/generate";
import { testCompany, testRecord } from "../fixtures/companies";

let speech: SpeechEngine;
beforeAll(async () => {
  speech = await createSpeechEngine();
}, 60_000);

const enricher: Enricher = {
  enrich: () => {
    throw new Error("not used: enrichment is far past the end of these runs");
  },
  renderPdf: () => Promise.reject(new Error("not used")),
};

interface Run {
  seconds: number;
  sentences: string[];
  runtime: CallRuntime;
}

async function runCall(
  durationSeconds: number,
  company: Company = testCompany(),
  record: WireEarningsRecord = testRecord(),
  callId = "0123456789abcdef01234567",
): Promise<Run> {
  const startMs = Date.UTC(2026, 9, 28, 20, 0, 0);
  const info = {
    callId,
    kind: "control" as const,
    company,
    record,
    nextRecord: testRecord({
      period: "Q4",
      eps: "",
      revenue: "",
      eps_est: "2.050",
      revenue_est: "4400000000",
    }),
    startTime: new Date(startMs),
    plannedSeconds: durationSeconds,
  };
  const script = generateScript({ ...info, targetSeconds: durationSeconds });
  let now = startMs;
  const runtime = new CallRuntime(info, script, {
    speech,
    createTrack: () => createCallAudioTrack({ sampleRate: speech.sampleRate }),
    enricher,
    now: () => now,
    enrichDelayMs: 3_600_000,
  });
  while (runtime.status !== "COMPLETED" && now - startMs < (durationSeconds + 60) * 1000) {
    runtime.tick();
    await runtime.idle();
    now += 100;
  }
  runtime.dispose();
  const end = runtime.endTime?.getTime() ?? Number.NaN;
  return { seconds: (end - startMs) / 1000, sentences: runtime.sentences.map((s) => s.text), runtime };
}

describe("live call duration (control API durationSeconds)", () => {
  const runs = new Map<number, Run>();
  beforeAll(async () => {
    for (const d of [10, 20, 50, 90]) runs.set(d, await runCall(d));
  }, 120_000);

  it.each([10, 20, 50, 90])("a %i s call ends at its duration (±2 s of end_time − start_time)", (d) => {
    const run = runs.get(d)!;
    expect(run.runtime.status).toBe("COMPLETED");
    expect(Math.abs(run.seconds - d)).toBeLessThanOrEqual(2);
  });

  it("speaks more sentences as the duration grows", () => {
    const counts = [10, 20, 50, 90].map((d) => runs.get(d)!.sentences.length);
    for (let i = 1; i < counts.length; i++) expect(counts[i]!).toBeGreaterThan(counts[i - 1]!);
    expect(counts[2]!).toBeGreaterThanOrEqual(6);
  });

  it.each([10, 20, 50, 90])(
    "a %i s call has the operator intro, the CFO's EPS and revenue, and the operator close",
    (d) => {
      const { runtime } = runs.get(d)!;
      const spoken = runtime.sentences;
      expect(spoken[0]?.speakerLabel).toBe("OPERATOR");
      expect(spoken[0]?.text).toMatch(/welcome/i);
      expect(spoken.at(-1)?.speakerLabel).toBe("OPERATOR");
      expect(spoken.at(-1)?.text).toMatch(/concludes/);
      const cfoLabel = runtime.script.speakers.find((s) => s.name === "Marco Bellini")?.label;
      const cfoText = spoken
        .filter((s) => s.speakerLabel === cfoLabel)
        .map((s) => s.text)
        .join(" ");
      expect(cfoText).toContain("$1.99");
      expect(cfoText).toContain("$4.21 billion");
    },
  );

  it("fits 10 s calls of companies with long names and large figures", async () => {
    const company = testCompany({ shortName: "Consolidated Pacific Northern Transportation" });
    const record = testRecord({ revenue: "12345000000.000", eps: "-12.340", eps_prior: "-10.110" });
    const run = await runCall(10, company, record, "fedcba9876543210fedcba98");
    expect(Math.abs(run.seconds - 10)).toBeLessThanOrEqual(2);
    const text = run.sentences.join(" ");
    expect(text).toContain(formatMoney(parseAmount(record.revenue)!));
    expect(text).toContain(formatPerShare(parseAmount(record.eps)!));
  }, 60_000);
});
