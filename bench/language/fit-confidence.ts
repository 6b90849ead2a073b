/**
 * Fits the confidence model of lib/insights/confidence.ts (docs/insights.md, "Confidence") on the TUNING side of the
 * labelled real calls (the tuning half and the fresh split; never the held-out half): every figure the current rules
 * find in a labelled sentence is one example, right when it matches a label of its sentence as the evaluation
 * matches them (figures-eval.ts). A logistic regression with an L2 penalty, by gradient descent (a few hundred
 * examples, thirty features: nothing to install). Prints the fitted weights, and what leaving each call out in turn
 * gives: precision and recall at FIGURE_CONFIDENCE_THRESHOLD, so the threshold's promise is checked out of sample.
 *
 *   CALLROOM_CORPUS_DIR=… node --import tsx bench/language/fit-confidence.ts [--write] [--l2 1]
 *
 * `--write` replaces the weights between the `bench:confidence-model` markers of lib/insights/confidence.ts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CORPUS_DIR, readCall } from "./corpus";
import { figureMatches } from "./figures-eval";
import { ROOT, type LooseFigure } from "./implementation";
import { loadLabels, type LabelFigure } from "./labels";
import { liveSentences } from "./live-call";
import { InsightsEngine } from "../../lib/insights/engine";
import {
  CONFIDENCE_FEATURES,
  featuresOf,
  isRuledOut,
  scoreWith,
  type ConfidenceFeature,
  type ConfidenceFeatures,
} from "../../lib/insights/confidence";
import { FIGURE_CONFIDENCE_THRESHOLD } from "../../lib/insights/fact";

const { values } = parseArgs({
  options: {
    write: { type: "boolean", default: false },
    wrong: { type: "boolean", default: false },
    l2: { type: "string", default: "1" },
    "no-cv": { type: "boolean", default: false },
    /** `tuning` fits on the tuning half alone, so the fresh split measures the fit out of sample. */
    on: { type: "string", default: "tuning,fresh" },
  },
});
const L2 = Number(values.l2);

interface Example {
  call: string;
  x: ConfidenceFeatures;
  right: 0 | 1;
  /** Capped by a rule the model does not override (a question, a prior range). */
  capped: boolean;
}

const sides = new Set(values.on.split(",").filter((s) => s !== "heldout"));
const labels = loadLabels().filter((l) => sides.has(l.split));
const examples: Example[] = [];
for (const file of new Set(labels.map((l) => l.file))) {
  const call = readCall(CORPUS_DIR, file);
  if (!call) continue;
  const engine = new InsightsEngine({
    consensus: { current: null, next: null },
    previousCall: null,
    call: { period: `Q${call.quarter}`, year: call.year },
  });
  const insights = engine.compute({ sentences: liveSentences(call), participants: [], isComplete: true });
  for (const label of labels.filter((l) => l.file === file)) {
    const s = call.sentences.find(
      (x) => x.section === label.section && x.turn === label.turn && x.offset === label.offset,
    )!;
    const taken = new Set<LabelFigure>();
    for (const f of insights.figures.filter((f) => f.sequence === s.sequence)) {
      const x = featuresOf(f);
      if (!x) continue;
      const l = label.figures.find((y) => !taken.has(y) && figureMatches(f as LooseFigure, y));
      if (l) taken.add(l);
      examples.push({ call: file, x, right: l ? 1 : 0, capped: isRuledOut(f) });
      if (values.wrong && !l && !isRuledOut(f))
        console.error(
          `WRONG ${f.metric}[${f.segment ?? ""}] ${f.kind} ${f.value} ${f.unit} | ${s.text.slice(0, 200)} | ${CONFIDENCE_FEATURES.filter(
            (k) => x[k],
          )
            .map((k) => `${k}=${Math.round(x[k] * 100) / 100}`)
            .join(" ")}`,
        );
    }
  }
}

function fit(train: Example[]): { bias: number; weights: Record<ConfidenceFeature, number> } {
  let bias = 0;
  const w = Object.fromEntries(CONFIDENCE_FEATURES.map((k) => [k, 0])) as Record<ConfidenceFeature, number>;
  const rate = 0.1;
  for (let epoch = 0; epoch < 3000; epoch++) {
    let gBias = 0;
    const g = Object.fromEntries(CONFIDENCE_FEATURES.map((k) => [k, 0])) as Record<ConfidenceFeature, number>;
    for (const e of train) {
      const err = scoreWith(e.x, bias, w) - e.right;
      gBias += err;
      for (const k of CONFIDENCE_FEATURES) g[k] += err * e.x[k];
    }
    bias -= (rate * gBias) / train.length;
    for (const k of CONFIDENCE_FEATURES) w[k] -= (rate * (g[k] + L2 * w[k])) / train.length;
  }
  return { bias, weights: w };
}

const usable = examples.filter((e) => !e.capped);
if (values.wrong)
  for (const k of CONFIDENCE_FEATURES) {
    const on = usable.filter((e) => e.x[k] > 0);
    console.error(`FEATURE ${k}: ${on.length} figures, ${on.filter((e) => e.right).length} right`);
  }
const model = fit(usable);

// Leave one call out: each call scored by a model fitted on the others.
const calls = [...new Set(usable.map((e) => e.call))];
let shown = 0;
let shownRight = 0;
const right = usable.filter((e) => e.right).length;
const bands = new Map<string, [number, number]>();
for (const call of values["no-cv"] ? [] : calls) {
  const m = fit(usable.filter((e) => e.call !== call));
  for (const e of usable.filter((x) => x.call === call)) {
    const p = scoreWith(e.x, m.bias, m.weights);
    if (p >= FIGURE_CONFIDENCE_THRESHOLD) {
      shown++;
      shownRight += e.right;
    }
    const band = (Math.floor(p * 10) / 10).toFixed(1);
    const b = bands.get(band) ?? [0, 0];
    b[0]++;
    b[1] += e.right;
    bands.set(band, b);
  }
}
const r3 = (v: number) => Math.round(v * 1000) / 1000;
console.log(
  JSON.stringify({
    examples: usable.length,
    right: right,
    calls: calls.length,
    leaveOneCallOut: {
      threshold: FIGURE_CONFIDENCE_THRESHOLD,
      shown,
      precision: shown ? r3(shownRight / shown) : null,
      shareOfRightShown: right ? r3(shownRight / right) : null,
      bands: Object.fromEntries(
        [...bands].sort().map(([k, [n, ok]]) => [k, { figures: n, precision: r3(ok / n) }]),
      ),
    },
    bias: r3(model.bias),
    weights: Object.fromEntries(CONFIDENCE_FEATURES.map((k) => [k, r3(model.weights[k])])),
  }),
);

if (values.write) {
  const path = join(ROOT, "lib/insights/confidence.ts");
  const text = readFileSync(path, "utf8");
  const start = text.indexOf("// bench:confidence-model:start");
  const end = text.indexOf("// bench:confidence-model:end");
  const block = [
    "// bench:confidence-model:start",
    `/**`,
    ` * Fitted by bench/language/fit-confidence.ts (L2 ${L2}) on ${usable.length} figures found in the tuning side's labelled`,
    ` * sentences (${right} right); leaving each of the ${calls.length} calls out in turn, the figures at or above the threshold`,
    ` * were right ${r3(shownRight / shown)} of the time and held ${r3(shownRight / right)} of the right ones.`,
    ` */`,
    `export const CONFIDENCE_BIAS = ${r3(model.bias)};`,
    `export const CONFIDENCE_WEIGHTS: Record<ConfidenceFeature, number> = {`,
    ...CONFIDENCE_FEATURES.map((k) => `  ${k}: ${r3(model.weights[k])},`),
    `};`,
    "",
  ].join("\n");
  writeFileSync(path, text.slice(0, start) + block + text.slice(end));
}
