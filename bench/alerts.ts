/**
 * Rule matching throughput: 1,000 users × 10 rules (keyword phrases of one to three words, guidance, sentiment,
 * call-live, scoped to a watchlist of 30 tickers, to a few tickers, or to every call) against synthetic call
 * sentences of 12 to 40 words, on one core. Target: at least 10,000 sentences/s.
 *
 *   npx tsx --conditions=react-server bench/alerts.ts [sentences=200000] [termShare=0.1]
 */
import type { SentenceEvent } from "@/lib/schemas/live";
import { AlertEvaluator } from "@/server/alerts/evaluator";
import type { CompiledRule } from "@/server/alerts/rules";

const USERS = 1_000;
const RULES_PER_USER = 10;
const SENTENCES = Number(process.argv[2] ?? 200_000);

let seed = 17;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

const TERMS =
  `revenue margin growth demand tariff tariffs pricing supply chain inventory backlog customers quarter
  year guidance outlook expect cloud data center capex buyback dividend headwinds tailwinds currency china europe
  semiconductor memory wafer yield shipments orders bookings churn subscription retention operating expense leverage
  free cash flow debt refinancing acquisition integration synergy restructuring layoffs hiring wages inflation rates
  consumer enterprise government defense healthcare pharmacy claims premiums underwriting loans deposits credit`
    .split(/\s+/)
    .filter(Boolean);
/**
 * Sentences are ordinary words with the terms analysts set alerts on mixed in (`TERM_SHARE` of the words); at 10%,
 * a sentence fires a couple of dozen of the 10,000 rules, far more than a real call does.
 */
const TERM_SHARE = Number(process.argv[3] ?? 0.1);
const ORDINARY = [
  ...`the a of and to in we our that is for on with as this it was be are have from at by an will which more than
  strong weak record decline increase decrease improved softer stable robust challenging volatile sequential
  also some very just about over into after before because while where there their those these other`
    .split(/\s+/)
    .filter(Boolean),
  ...`the of and to in we our that is for a`.split(" "),
];
const TICKERS = Array.from({ length: 500 }, (_, i) => `T${i.toString(36).toUpperCase()}`);

function phrase(): string {
  const n = rand() < 0.6 ? 1 : rand() < 0.8 ? 2 : 3;
  return Array.from({ length: n }, () => pick(TERMS)).join(" ");
}

function scope(): ReadonlySet<string> | null {
  const r = rand();
  if (r < 0.2) return null;
  const size = r < 0.7 ? 30 : 3;
  return new Set(Array.from({ length: size }, () => pick(TICKERS)));
}

const rules: CompiledRule[] = [];
for (let u = 0; u < USERS; u++) {
  const watchlist = scope();
  for (let r = 0; r < RULES_PER_USER; r++) {
    const kind = r < 7 ? "keyword" : r === 7 ? "guidance" : r === 8 ? "sentiment" : "call-live";
    rules.push({
      id: `${u}:${r}`,
      userId: String(u),
      kind,
      phrase: kind === "keyword" ? phrase() : null,
      tickers: rand() < 0.5 ? watchlist : scope(),
      speakerRole: rand() < 0.1 ? "speaker" : null,
      threshold: kind === "sentiment" ? (rand() < 0.5 ? -0.4 : 0.5) : null,
    });
  }
}

const sentences: { symbol: string; event: SentenceEvent }[] = Array.from({ length: 5_000 }, (_, i) => {
  const n = 12 + Math.floor(rand() * 28);
  const text = Array.from({ length: n }, () => (rand() < TERM_SHARE ? pick(TERMS) : pick(ORDINARY))).join(
    " ",
  );
  return {
    symbol: pick(TICKERS.slice(0, 60)),
    event: {
      callId: (i % 40).toString(16).padStart(24, "0"),
      sequence: i,
      text: `${text[0]!.toUpperCase()}${text.slice(1)}.`,
      speaker: rand() < 0.1 ? "OPERATOR" : `SPEAKER_${1 + Math.floor(rand() * 4)}`,
      startMs: i * 4_000,
      endMs: i * 4_000 + 3_500,
      confidence: 0.9,
      sentiment: rand() * 2 - 1,
    },
  };
});

const buildStart = performance.now();
const evaluator = new AlertEvaluator(rules);
const buildMs = performance.now() - buildStart;

// Warm-up, then the measured run.
for (const s of sentences) evaluator.onSentence(s.symbol, s.event);
let candidates = 0;
const start = performance.now();
for (let i = 0; i < SENTENCES; i++) {
  const s = sentences[i % sentences.length]!;
  candidates += evaluator.onSentence(s.symbol, s.event).length;
}
const seconds = (performance.now() - start) / 1000;
const perSecond = Math.round(SENTENCES / seconds);

console.log(
  JSON.stringify(
    {
      rules: rules.length,
      sentences: SENTENCES,
      compileMs: Math.round(buildMs),
      sentencesPerSec: perSecond,
      candidatesPerSentence: Number((candidates / SENTENCES).toFixed(2)),
      target: 10_000,
      met: perSecond >= 10_000,
    },
    null,
    2,
  ),
);
