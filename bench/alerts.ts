/**
 * Rule matching throughput: 1,000 users × 10 rules (keyword phrases of one to three words, guidance, sentiment,
 * call-live, scoped to a watchlist of 30 tickers, to a few tickers, or to every call) against synthetic call
 * sentences of 12 to 40 words, on one core. Target: at least 10,000 sentences/s.
 *
 * Then the server's part of sentence → toast: the same 10,000 rules stored in an in-memory PGlite, the alert service
 * on an in-memory live bus, and a probe user whose rule one sentence in ten matches; latency from the bus's publish to the
 * alert reaching the user's bus (what the SSE route writes to the tab), while 200 other sentences/s are evaluated.
 * The browser's part (one SSE write, EventSource dispatch, one React render) is not in this figure.
 *
 *   npx tsx --conditions=react-server bench/alerts.ts [sentences=200000] [termShare=0.1]
 */
import type { SentenceEvent } from "@/lib/schemas/live";
import { createMemoryBus } from "@/server/alerts/bus";
import { AlertService } from "@/server/alerts/service";
import { AlertStore } from "@/server/alerts/store";
import type { WebhookSender } from "@/server/alerts/webhook";
import { createDatabase } from "@/server/db/database";
import { alertRules } from "@/server/db/schema/workspace";
import { MemoryBus } from "@/server/live/memory-bus";
import { WatchlistRepository } from "@/server/workspace/watchlists";
import { AlertEvaluator } from "@/server/alerts/evaluator";
import { PhraseMatcher } from "@/server/alerts/matcher";
import type { CompiledRule } from "@/server/alerts/rules";
import { ALERT_TERMS, generateRules, seededRandom } from "./lib/alert-rules";
import { NaivePhraseMatcher } from "./lib/naive-phrase-matcher";

const USERS = 1_000;
const RULES_PER_USER = 10;
const SENTENCES = Number(process.argv[2] ?? 200_000);

const rand = seededRandom(17);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const TERMS = ALERT_TERMS;

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

const rules: CompiledRule[] = generateRules({
  users: USERS,
  rulesPerUser: RULES_PER_USER,
  tickers: TICKERS,
  rand,
}).map((r, i) => ({
  ...r,
  id: `${r.userId}:${i % RULES_PER_USER}`,
  label: r.phrase ?? r.kind,
  tickers: r.tickers ? new Set(r.tickers) : null,
}));

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

/** Sentences per second through `fire` over the sentence pool (after one warm-up pass), and what it returned. */
function throughput(fire: (s: (typeof sentences)[number]) => number, count: number) {
  for (const s of sentences) fire(s);
  let fired = 0;
  const start = performance.now();
  for (let i = 0; i < count; i++) fired += fire(sentences[i % sentences.length]!);
  return {
    perSecond: Math.round(count / ((performance.now() - start) / 1000)),
    firedPerSentence: fired / count,
  };
}

// The engine as the server runs it: every rule kind (phrases through the index, sentiment crossings, scopes).
const engine = throughput((s) => evaluator.onSentence(s.symbol, s.event).length, SENTENCES);

// The same phrase rules two ways, on the same sentences: the index, and the baseline an engine without one would be
// (every rule in scope checked against the sentence's stems, which are computed once). Both must fire the same rules.
const matcher = new PhraseMatcher(rules);
const naive = new NaivePhraseMatcher(rules);
for (const s of sentences.slice(0, 1_000)) {
  const input = { symbol: s.symbol, speaker: s.event.speaker, text: s.event.text };
  const a = matcher
    .match(input)
    .map((h) => h.rule.id)
    .sort();
  const b = naive
    .match(input)
    .map((r) => r.id)
    .sort();
  if (a.join() !== b.join())
    throw new Error(
      `the index and the baseline disagree on "${s.event.text}": ${a.length} against ${b.length} rules`,
    );
}
const phraseInput = (s: (typeof sentences)[number]) => ({
  symbol: s.symbol,
  speaker: s.event.speaker,
  text: s.event.text,
});
const indexed = throughput((s) => matcher.match(phraseInput(s)).length, SENTENCES);
// The baseline is far slower: fewer sentences keep its run as short as the index's.
const baseline = throughput(
  (s) => naive.match(phraseInput(s)).length,
  Math.max(2_000, Math.round(SENTENCES / 50)),
);

const matching = {
  rules: rules.length,
  sentences: SENTENCES,
  compileMs: Math.round(buildMs),
  sentencesPerSec: engine.perSecond,
  candidatesPerSentence: Number(engine.firedPerSentence.toFixed(2)),
  phraseIndexPerSec: indexed.perSecond,
  phraseBaselinePerSec: baseline.perSecond,
  ratioIndexOverBaseline: Number((indexed.perSecond / baseline.perSecond).toFixed(1)),
  target: 10_000,
  met: engine.perSecond >= 10_000,
};
console.error(`matching: ${JSON.stringify(matching)}`);

const serverPath = await latency();
// The last line of standard output is the result (bench/run.ts reads it).
console.log(JSON.stringify({ matching, serverPath }));

function ordinarySentence(): string {
  return Array.from({ length: 20 }, () => pick(ORDINARY)).join(" ");
}

async function latency() {
  const quiet = { info() {}, warn() {}, error() {} };
  const database = await createDatabase({ dataDir: "memory://", logger: quiet });
  const rows = rules.map((r) => ({
    userId: `u${r.userId}`,
    kind: r.kind,
    phrase: r.phrase,
    tickers: r.tickers ? [...r.tickers] : null,
    speakerRole: r.speakerRole,
    threshold: r.threshold,
  }));
  for (let i = 0; i < rows.length; i += 1_000)
    await database.db.insert(alertRules).values(rows.slice(i, i + 1_000));
  const store = new AlertStore(database.db);
  await store.createRule("probe", { kind: "keyword", phrase: "zebra crossing", tickers: ["PRB"] });
  const watchlists = new WatchlistRepository(database.db);
  const live = new MemoryBus();
  const bus = createMemoryBus();
  const service = new AlertService({
    live,
    isLeader: () => true,
    source: {
      loadRules: async () => store.compiledRules(await watchlists.tickersById()),
      loadMutes: () => store.activeMutes(),
      endMutesOf: (callId) => store.endMutesOf(callId),
      recordFirings: (c) => store.recordFirings(c),
      loadResultsCursor: async () => null,
      saveResultsCursor: async () => {},
    },
    bus,
    webhooks: { deliver: async () => true } as unknown as WebhookSender,
    push: async () => null,
    pushSubscriptionsOf: async () => new Map(),
    earningsUpdatedSince: null,
    log: quiet,
    publicBaseUrl: null,
  });
  service.start();
  await service.reload();
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  bus.subscribeUser("probe", (alert) => {
    const t0 = sentAt.get(alert.sequence ?? -1);
    if (t0 !== undefined) latencies.push(performance.now() - t0);
  });
  const PROBES = 100;
  let sequence = 0;
  for (let i = 0; i < PROBES * 10; i++) {
    sequence += 1;
    const isProbe = i % 10 === 0;
    const s = sentences[i % sentences.length]!;
    // Background sentences as a real call's mostly are: nothing any rule listens for, no sentiment swing.
    const text = isProbe ? "Zebra crossings ahead of plan this quarter." : ordinarySentence();
    const event = { ...s.event, callId: "b".repeat(24), sequence, text, sentiment: null };
    if (isProbe) sentAt.set(sequence, performance.now());
    live.publish({ event: "sentence", symbol: isProbe ? "PRB" : s.symbol, data: event });
    await new Promise((r) => setTimeout(r, 5));
  }
  await service.idle();
  await service.stop();
  await database.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1));
  return {
    samples: latencies.length,
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    maxMs: at(1),
    backgroundSentencesPerSec: Math.round(1000 / 5),
  };
}
