/** The cost per sentence: extraction plus alignment, and the whole engine step the call room pays. */
import { performance } from "node:perf_hooks";
import type { CorpusCall, CorpusSentence } from "./corpus";
import type { Implementation } from "./implementation";
import { liveSentences } from "./live-call";

export interface CostReport {
  sentences: number;
  extractionPlusAlignment: { meanMs: number; p95Ms: number };
  engineIncremental: { meanMs: number; p95Ms: number };
  targetMs: number;
}

const statsOf = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] ?? 0;
  return { meanMs: Math.round(mean * 10_000) / 10_000, p95Ms: Math.round(p95 * 10_000) / 10_000 };
};

/**
 * Each call's sentences against the company's previous call in the corpus: extraction plus the BM25 alignment a
 * new sentence costs, and the whole engine step the call room pays per sentence (Q&A included). Fastest of three
 * rounds per sentence: on a shared machine the slow samples measure the neighbours.
 */
export function measureCost(
  impl: Implementation,
  pairs: { call: CorpusCall; previous: CorpusCall }[],
): CostReport {
  const extract: number[] = [];
  const engine: number[] = [];
  for (const { call, previous } of pairs) {
    const prevSentences = previous.sentences.map((s: CorpusSentence) => ({
      sequence: s.sequence,
      speaker: s.speaker,
      startMs: s.startMs,
      text: s.text,
    }));
    const index = impl.previousIndex(prevSentences);
    const live = liveSentences(call);
    const best = new Array<number>(live.length).fill(Infinity);
    const bestEngine = new Array<number>(live.length).fill(Infinity);
    for (let round = 0; round < 3; round++) {
      const e = impl.newEngine({
        consensus: { current: null, next: null },
        previousCall: {
          callId: previous.file,
          title: previous.file,
          startTime: "2020-01-01T00:00:00Z",
          period: null,
          year: null,
          segments: prevSentences,
        },
      });
      for (let i = 0; i < live.length; i++) {
        const s = live[i]!;
        const text = s.text;
        let t = performance.now();
        impl.extractFigures({ sequence: s.sequence, text, startMs: s.startMs });
        index.index.best(text);
        best[i] = Math.min(best[i]!, performance.now() - t);
        t = performance.now();
        e.compute({ sentences: live.slice(0, i + 1), isComplete: false });
        bestEngine[i] = Math.min(bestEngine[i]!, performance.now() - t);
      }
    }
    extract.push(...best);
    engine.push(...bestEngine);
  }
  return {
    sentences: extract.length,
    extractionPlusAlignment: statsOf(extract),
    engineIncremental: statsOf(engine),
    targetMs: 1,
  };
}
