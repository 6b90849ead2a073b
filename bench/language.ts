/**
 * Language on real calls (issue 25): figures, guidance, Q&A, speaker names and the guidance alert, measured on the
 * real-call corpus against hand-written labels, for this tree and the baseline side by side. The corpus is read at
 * run time from the real-call corpus (bench/language/corpus.ts; docs/insights.md, "Evaluation on real calls"); without it the benchmark says so and is
 * skipped. Writes the results table of docs/insights.md (between the `bench:language` markers).
 *
 *   npm run bench -- --only language
 *
 * The work runs in a child process under the `react-server` condition, since the alert evaluator is server code.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import { ROOT } from "./lib/app";
import { loadAverage, log, withTimeout } from "./lib/common";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" ? (v as Json) : {});
const num = (v: unknown) => (typeof v === "number" ? v : null);

export async function runLanguageBench(): Promise<Json> {
  const load = loadAverage();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=react-server", "bench/language/run.ts"],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await withTimeout(
    new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", resolve);
    }),
    15 * 60_000,
    "the language benchmark",
  ).finally(() => child.kill());
  if (code !== 0) throw new Error(`bench/language/run.ts exited with ${code}`);
  const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Json;
  if (result.skipped) {
    log(`language: skipped (${String(result.reason)})`);
    return { ...result, loadAverage: load };
  }
  const table = languageTable(result);
  log(`language:\n${table}`);
  await writeInsightsDoc(table);
  return { ...result, met: targetsMet(result), loadAverage: load };
}

const TARGETS: [string, string, (side: Json) => number | null, number, "≥" | "≤" | "="][] = [
  ["Figures shown as fact: precision", "figures.precision", (s) => num(obj(s.figures).precision), 0.9, "≥"],
  [
    "Recall, every figure an analyst would take",
    "figures.recall",
    (s) => num(obj(s.figures).recall),
    0.7,
    "≥",
  ],
  ["Recall, core metrics", "figures.recallCore", (s) => num(obj(s.figures).recallCore), 0.85, "≥"],
  [
    "Period right (of figures found)",
    "figures.periodAccuracy",
    (s) => num(obj(s.figures).periodAccuracy),
    0.9,
    "≥",
  ],
  ["Guidance precision", "figures.guidancePrecision", (s) => num(obj(s.figures).guidancePrecision), 0.9, "≥"],
  [
    "Figures compared with consensus that are not that quarter's company-level figure",
    "figures.comparedWrong",
    (s) => num(obj(s.figures).comparedWrong),
    0,
    "=",
  ],
  ["Guidance alert precision", "alerts.precision", (s) => num(obj(s.alerts).precision), 0.9, "≥"],
  [
    "Q&A: introduced analysts listed with their firm within 60 s",
    "qa.coverage",
    (s) => num(obj(s.qa).coverage),
    0.9,
    "≥",
  ],
  [
    "Management sentences with the right name, live",
    "qa.speakerNameLive",
    (s) => num(obj(s.qa).speakerNameLive),
    0.8,
    "≥",
  ],
  [
    "Management sentences with the right name, after enrichment",
    "qa.speakerNameEnriched",
    (s) => num(obj(s.qa).speakerNameEnriched),
    1,
    "≥",
  ],
];

const passes = (v: number | null, target: number, op: "≥" | "≤" | "=") =>
  v !== null && (op === "≥" ? v >= target : op === "≤" ? v <= target : v === target);

function targetsMet(result: Json): boolean {
  const heldout = obj(obj(result.current).heldout);
  const cost = obj(obj(obj(result.current).cost).extractionPlusAlignment);
  return (
    TARGETS.every(([, , get, target, op]) => passes(get(heldout), target, op)) &&
    passes(num(cost.p95Ms), 1, "≤")
  );
}

const fmt = (v: number | null) => (v === null ? "—" : String(v));

export function languageTable(result: Json): string {
  const current = obj(result.current);
  const baseline = obj(result.baseline);
  const labels = obj(result.labels);
  const lines = [
    `Labelled: ${fmt(num(labels.sentences))} sentences of ${fmt(num(labels.calls))} calls (${fmt(num(labels.figures))} figures; ${fmt(num(labels.tuningSentences))} tuning, ${fmt(num(labels.heldoutSentences))} held out, ${fmt(num(labels.freshSentences))} fresh, ${fmt(num(labels.fresh2Sentences))} fresh 2); Q&A and speakers on ${fmt(num(result.qaCallsPerSide))} calls per side (tuning, held out).`,
    "",
    "| measure | target | held out | held out, baseline | tuning | tuning, baseline | fresh | fresh, baseline | fresh 2 | fresh 2, baseline |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const [label, , get, target, op] of TARGETS) {
    const h = get(obj(current.heldout));
    lines.push(
      `| ${label} | ${op} ${target} | ${fmt(h)}${passes(h, target, op) ? "" : " **(missed)**"} | ${fmt(get(obj(baseline.heldout)))} | ${fmt(get(obj(current.tuning)))} | ${fmt(get(obj(baseline.tuning)))} | ${fmt(get(obj(current.fresh)))} | ${fmt(get(obj(baseline.fresh)))} | ${fmt(get(obj(current.fresh2)))} | ${fmt(get(obj(baseline.fresh2)))} |`,
    );
  }
  const extras: [string, (s: Json) => number | null][] = [
    ["Recall, metrics in the vocabulary", (s) => num(obj(s.figures).recallKnownMetrics)],
    ["Figures compared with consensus", (s) => num(obj(s.figures).comparedWithConsensus)],
    ["Guidance recall (guidance figures found as such)", (s) => num(obj(s.figures).guidanceRecall)],
    ["Guidance alert recall", (s) => num(obj(s.alerts).recall)],
    ["Guidance alerts on questions or operator lines", (s) => num(obj(s.alerts).firedOnQuestionsOrOperator)],
    ["Analyst sentences in their analyst's turn", (s) => num(obj(s.qa).analystSentencesRightTurn)],
    ["Turns whose answerers are named right (end of call, live)", (s) => num(obj(s.qa).answeredByRight)],
    [
      "Management sentences named right by the end of the call, live",
      (s) => num(obj(s.qa).speakerNameLiveByEnd),
    ],
  ];
  for (const [label, get] of extras)
    lines.push(
      `| ${label} | | ${fmt(get(obj(current.heldout)))} | ${fmt(get(obj(baseline.heldout)))} | ${fmt(get(obj(current.tuning)))} | ${fmt(get(obj(baseline.tuning)))} | ${fmt(get(obj(current.fresh)))} | ${fmt(get(obj(baseline.fresh)))} | ${fmt(get(obj(current.fresh2)))} | ${fmt(get(obj(baseline.fresh2)))} |`,
    );
  const cost = obj(obj(current.cost).extractionPlusAlignment);
  const baseCost = obj(obj(baseline.cost).extractionPlusAlignment);
  const engine = obj(obj(current.cost).engineIncremental);
  const c = num(cost.p95Ms);
  lines.push(
    `| Extraction + alignment per sentence, p95 ms (mean ${fmt(num(cost.meanMs))}) | ≤ 1 | ${fmt(c)}${passes(c, 1, "≤") ? "" : " **(missed)**"} | ${fmt(num(baseCost.p95Ms))} | | | | | | |`,
    `| Whole engine step per sentence, p95 ms (mean ${fmt(num(engine.meanMs))}) | | ${fmt(num(engine.p95Ms))} | ${fmt(num(obj(obj(baseline.cost).engineIncremental).p95Ms))} | | | | | | |`,
  );
  return lines.join("\n");
}

const START = "<!-- bench:language:start -->";
const END = "<!-- bench:language:end -->";

async function writeInsightsDoc(table: string): Promise<void> {
  const path = join(ROOT, "docs/insights.md");
  if (!existsSync(path)) return;
  const doc = readFileSync(path, "utf8");
  const at = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (at < 0 || end < at) return;
  const stamp = `Last run: ${new Date().toISOString().slice(0, 10)} (\`npm run bench -- --only language\`).`;
  const text = `${doc.slice(0, at + START.length)}\n\n${stamp}\n\n${table}\n\n${doc.slice(end)}`;
  // Formatted as the repository's prettier would, so a run leaves the doc as format:check wants it.
  const options = (await prettier.resolveConfig(path)) ?? {};
  writeFileSync(path, await prettier.format(text, { ...options, filepath: path }));
}
