/**
 * The language evaluation in one process (bench/language.ts starts it under the `react-server` condition, since the
 * alert evaluator is server code). Reads the real-call corpus at run time; when it is absent, says so and reports
 * `skipped`. The code of this tree and the baseline (BASELINE_COMMIT) are measured side by side, on the tuning and
 * the held-out companies separately.
 *
 *   node --import tsx --conditions=react-server bench/language/run.ts [--misses] [--qa-calls N]
 *
 * `--misses` prints what the current code gets wrong on the TUNING side and the FRESH split (calls of tuning-side
 * companies labelled later, sample-fresh.ts; `fresh2`, drawn after this session's rules, is never printed); the held-out side is reported as totals, never sentence by sentence,
 * so tuning never looks at it.
 */
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { corpusFiles, CORPUS_DIR, readCall, splitOf, type CorpusCall } from "./corpus";
import { evaluateAlerts } from "./alerts-eval";
import { measureCost } from "./cost";
import { evaluateFigures, type FigureMiss } from "./figures-eval";
import { evaluateQa } from "./qa-eval";
import { loadBaseline, loadCurrent, type Implementation } from "./implementation";
import { loadLabels } from "./labels";
import { seededRandom } from "../lib/common";

const { values } = parseArgs({
  options: {
    misses: { type: "boolean", default: false },
    "qa-calls": { type: "string", default: "40" },
    "skip-baseline": { type: "boolean", default: false },
  },
});

const files = corpusFiles(CORPUS_DIR);
if (!files) {
  console.error(`language: no corpus at ${CORPUS_DIR} (set CALLROOM_CORPUS_DIR); skipped`);
  console.log(JSON.stringify({ skipped: true, reason: `no corpus at ${CORPUS_DIR}` }));
  process.exit(0);
}

const labels = loadLabels();
const calls = new Map<string, CorpusCall>();
for (const file of new Set(labels.map((l) => l.file))) {
  const call = readCall(CORPUS_DIR, file);
  if (call) calls.set(file, call);
}

// The Q&A sample: calls with a Q&A, drawn per side with a fixed seed (labelled calls are not preferred).
const qaCalls = { tuning: [] as CorpusCall[], heldout: [] as CorpusCall[] };
{
  const random = seededRandom(7);
  const shuffled = [...files].sort(() => 0).map((f) => [random(), f] as const);
  shuffled.sort((a, b) => a[0] - b[0]);
  const perSide = Number(values["qa-calls"]);
  for (const [, file] of shuffled) {
    const side = splitOf(file.split("_")[0]!);
    if (qaCalls[side].length >= perSide) continue;
    const call = readCall(CORPUS_DIR, file);
    if (call && call.sentences.some((s) => s.section === "q_and_a" && s.role === "analyst"))
      qaCalls[side].push(call);
  }
}

// Cost: each held-out labelled call against the company's previous call in the corpus, when there is one.
const costPairs: { call: CorpusCall; previous: CorpusCall }[] = [];
for (const call of calls.values()) {
  if (splitOf(call.symbol) !== "heldout") continue;
  const earlier = files
    .filter((f) => f.startsWith(`${call.symbol}_`))
    .map((f) => readCall(CORPUS_DIR, f)!)
    .filter((c) => c && c.year * 4 + c.quarter < call.year * 4 + call.quarter)
    .sort((a, b) => b.year * 4 + b.quarter - (a.year * 4 + a.quarter))[0];
  if (earlier) costPairs.push({ call, previous: earlier });
}

async function measure(impl: Implementation, withMisses: boolean) {
  const out: Record<string, unknown> = {};
  for (const side of ["tuning", "heldout", "fresh", "fresh2"] as const) {
    const sideLabels = labels.filter((l) => l.split === side);
    if (sideLabels.length === 0) continue;
    const looked = withMisses && (side === "tuning" || side === "fresh");
    const misses: FigureMiss[] = [];
    const alertMisses: string[] = [];
    const figures = evaluateFigures(impl, calls, sideLabels, {
      enriched: false,
      misses: looked ? misses : undefined,
    });
    const figuresEnriched = evaluateFigures(impl, calls, sideLabels, { enriched: true });
    const alerts = evaluateAlerts(impl, calls, sideLabels, looked ? alertMisses : undefined);
    // The fresh split has labelled figures only; the Q&A is measured on each side's own sample of calls.
    const qa = side === "fresh" || side === "fresh2" ? null : evaluateQa(impl, qaCalls[side]);
    out[side] = {
      figures,
      figuresEnriched: {
        precision: figuresEnriched.precision,
        recall: figuresEnriched.recall,
        recallCore: figuresEnriched.recallCore,
        periodAccuracy: figuresEnriched.periodAccuracy,
      },
      alerts,
      qa: qa && { ...qa, missesSample: side === "tuning" ? qa.missesSample.slice(0, 10) : undefined },
    };
    if (looked) {
      for (const m of misses) console.error(`[${side} ${m.kind}] ${m.file} t${m.turn}@${m.offset} ${m.what}`);
      for (const m of alertMisses) console.error(`[${side} alert] ${m}`);
      for (const m of qa?.missesSample ?? []) console.error(`[qa] ${m}`);
    }
  }
  out.cost = measureCost(impl, costPairs);
  return out;
}

const started = Date.now();
const current = await measure(await loadCurrent(), values.misses);
const baselineImpl = values["skip-baseline"] ? null : await loadBaseline();
const baseline = baselineImpl ? await measure(baselineImpl, false) : null;

const labelledCalls = new Set(labels.map((l) => l.file));
const result = {
  corpus: { dir: relative(process.cwd(), CORPUS_DIR), files: files.length },
  labels: {
    sentences: labels.length,
    calls: labelledCalls.size,
    figures: labels.reduce((n, l) => n + l.figures.length, 0),
    tuningSentences: labels.filter((l) => l.split === "tuning").length,
    heldoutSentences: labels.filter((l) => l.split === "heldout").length,
    freshSentences: labels.filter((l) => l.split === "fresh").length,
    fresh2Sentences: labels.filter((l) => l.split === "fresh2").length,
  },
  qaCallsPerSide: Number(values["qa-calls"]),
  current,
  baseline: baseline ?? "not measured (git could not produce the baseline tree)",
  seconds: Math.round((Date.now() - started) / 1000),
};
console.log(JSON.stringify(result));
