/**
 * Insights benchmark: extraction plus alignment per sentence, with a 100-call archive (target: at most 5 ms per
 * sentence). Pure CPU, no app needed:
 *
 *   npx tsx bench/insights.ts            # prints the figures
 *   npm run bench -- --only insights     # also records them in bench/results.json
 *
 * The archive is synthetic earnings-call English (seeded, so every run reads the same text): 100 calls of 150
 * sentences. Three paths are timed per sentence of a live call: the engine as the call room runs it (extraction,
 * BM25 match in the previous call, Q&A and consensus over the transcript so far), extraction alone, and alignment
 * against the whole archive's index (15,000 sentences), the worst case an archive-backed lookup would face.
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { InsightsEngine } from "../lib/insights/engine";
import { extractFigures } from "../lib/insights/figures";
import { Bm25Index } from "../lib/insights/similarity";
import type { InsightsContext } from "../lib/schemas/insights";
import type { TranscriptSentence } from "../lib/insights/sentence";

const CALLS = 100;
const SENTENCES = 150;
const TARGET_MS = 5;
const ROUNDS = 5;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SEGMENTS = ["Cloud", "Data Center", "Industrial", "Services", "Consumer", "Aerospace"];
const WORDS = ["strong", "solid", "modest", "robust", "soft", "healthy", "challenging", "steady"];
const TOPICS = [
  "pricing",
  "supply chain",
  "demand",
  "tariffs",
  "inventory",
  "AI",
  "China",
  "margins",
  "backlog",
];

function makeCall(seed: number): TranscriptSentence[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const money = () => `$${(1 + r() * 9).toFixed(1)} billion`;
  const pct = () => `${(r() * 20).toFixed(1)}%`;
  const templates: (() => [string, string])[] = [
    () => ["SPEAKER_2", `Revenue was ${money()}, up ${pct()} year over year.`],
    () => [
      "SPEAKER_2",
      `${pick(SEGMENTS)} revenue was ${money()}, ${r() > 0.5 ? "up" : "down"} ${pct()} sequentially.`,
    ],
    () => [
      "SPEAKER_2",
      `Adjusted earnings per share were $${(r() * 4).toFixed(2)}, compared with $${(r() * 4).toFixed(2)} a year ago.`,
    ],
    () => [
      "SPEAKER_2",
      `Gross margin was ${(30 + r() * 40).toFixed(1)}%, up ${Math.round(r() * 200)} basis points.`,
    ],
    () => ["SPEAKER_2", `For the next quarter, we expect revenue in the range of ${money()} to ${money()}.`],
    () => [
      "SPEAKER_1",
      `Demand in ${pick(SEGMENTS)} remained ${pick(WORDS)} and we saw ${pick(WORDS)} trends in ${pick(TOPICS)}.`,
    ],
    () => [
      "SPEAKER_1",
      `We continue to invest in ${pick(TOPICS)} and ${pick(TOPICS)}, and customer feedback has been ${pick(WORDS)}.`,
    ],
    () => [
      "OPERATOR",
      `Our next question comes from Analyst ${Math.floor(r() * 50)} Smith with Firm ${Math.floor(r() * 20)} Capital.`,
    ],
    () => [
      "SPEAKER_3",
      `Can you talk about ${pick(TOPICS)} in ${pick(SEGMENTS)} and how you think about the second half?`,
    ],
    () => [
      "SPEAKER_1",
      `Sure, we think ${pick(TOPICS)} will stay ${pick(WORDS)} and we are comfortable with our ${pick(TOPICS)} position.`,
    ],
  ];
  return Array.from({ length: SENTENCES }, (_, sequence) => {
    const [speaker, text] = pick(templates)();
    return { sequence, speaker, startMs: sequence * 6000, endMs: sequence * 6000 + 5000, text, sentiment: 0 };
  });
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  const r3 = (n: number) => Math.round(n * 1000) / 1000;
  return { meanMs: r3(mean), p50Ms: r3(at(0.5)), p95Ms: r3(at(0.95)), maxMs: r3(sorted.at(-1)!) };
}

export async function runInsightsBench() {
  const archive = Array.from({ length: CALLS }, (_, i) => makeCall(1000 + i));
  const live = makeCall(41);
  const previous = archive[archive.length - 1]!;
  const context: InsightsContext = {
    consensus: { current: null, next: null },
    previousCall: {
      callId: "p".repeat(24),
      title: "previous",
      startTime: "2026-01-01T00:00:00Z",
      period: null,
      year: null,
      segments: previous.map(({ sequence, speaker, startMs, text }) => ({
        sequence,
        speaker,
        startMs,
        text,
      })),
    },
  };

  const indexStart = performance.now();
  const archiveIndex = new Bm25Index(archive.flat().map((s) => s.text));
  const indexMs = performance.now() - indexStart;

  // Warm-up: the JIT's first pass is not what a call room pays for its hundredth sentence.
  new InsightsEngine(context).compute({ sentences: live, isComplete: false });

  // Each path runs ROUNDS times and keeps the fastest time at each position: on a shared machine the slow samples
  // measure the neighbours (other processes' CPU), not this code. The load average is recorded beside the figures.
  const engineMs = new Array<number>(live.length).fill(Infinity);
  const extractMs = new Array<number>(live.length).fill(Infinity);
  const archiveMs = new Array<number>(live.length).fill(Infinity);
  for (let round = 0; round < ROUNDS; round++) {
    // A different live call each round, so no sentence is met twice (the engine's per-text memos stay cold).
    const live = makeCall(42 + round);
    const engine = new InsightsEngine(context);
    for (let n = 1; n <= live.length; n++) {
      const sentence = live[n - 1]!;
      let t = performance.now();
      engine.compute({ sentences: live.slice(0, n), isComplete: false });
      engineMs[n - 1] = Math.min(engineMs[n - 1]!, performance.now() - t);
      t = performance.now();
      extractFigures(sentence);
      archiveIndex.best(sentence.text);
      archiveMs[n - 1] = Math.min(archiveMs[n - 1]!, performance.now() - t);
      t = performance.now();
      extractFigures(sentence);
      extractMs[n - 1] = Math.min(extractMs[n - 1]!, performance.now() - t);
    }
  }
  const result = {
    archive: { calls: CALLS, sentences: archiveIndex.size, indexBuildMs: Math.round(indexMs) },
    perSentence: {
      engine: stats(engineMs),
      extraction: stats(extractMs),
      extractionPlusArchiveAlignment: stats(archiveMs),
    },
    targetMs: TARGET_MS,
    rounds: ROUNDS,
    loadAverage: loadavg().map((n) => Math.round(n * 100) / 100),
  };
  const worst = Math.max(
    result.perSentence.engine.p95Ms,
    result.perSentence.extractionPlusArchiveAlignment.p95Ms,
  );
  return { ...result, met: worst <= TARGET_MS };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runInsightsBench();
  console.log(JSON.stringify(result, null, 2));
  process.exit(result.met ? 0 : 1);
}
