/**
 * Draws the "fresh" split of the labelled set (docs/insights.md, "Evaluation on real calls"): sentences of calls of
 * TUNING-side companies that have no call in either labelled half, drawn after the rules of the tuning half were
 * written, so they measure those rules out of sample without touching the held-out half. Same strata as sample.ts
 * (6 management sentences with an amount, 1 analyst sentence, 3 forward-looking ones per call), another seed.
 * Prints the new entries (no corpus text) to append to labels.json, whose figures are then written by hand.
 *
 *   CALLROOM_CORPUS_DIR=… npx tsx bench/language/sample-fresh.ts [--calls 16] [--split fresh]
 *
 * Run again (`--calls 8 --split fresh2`) it draws the next companies: labelled ones are left out.
 */
import { parseArgs } from "node:util";
import { corpusFiles, CORPUS_DIR, readCall, splitOf } from "./corpus";
import { loadLabels } from "./labels";
import { drawStrata, filesByCompany, seededShuffle, unlabelledEntry } from "./strata";

const { values } = parseArgs({
  options: { calls: { type: "string", default: "16" }, split: { type: "string", default: "fresh" } },
});
const files = corpusFiles(CORPUS_DIR);
if (!files) {
  console.error(`no corpus at ${CORPUS_DIR}`);
  process.exit(1);
}
const labelled = new Set(loadLabels().map((l) => l.file.split("_")[0]!.toUpperCase()));
const shuffle = seededShuffle(20_261_127);
const byCompany = filesByCompany(files, (symbol) => splitOf(symbol) === "tuning" && !labelled.has(symbol));
const entries: string[] = [];
let taken = 0;
for (const symbol of shuffle([...byCompany.keys()].sort())) {
  if (taken === Number(values.calls)) break;
  const file = shuffle([...byCompany.get(symbol)!].sort())[0]!;
  const call = readCall(CORPUS_DIR, file);
  if (!call || !call.sentences.some((s) => s.section === "q_and_a")) continue;
  taken++;
  for (const s of drawStrata(call, shuffle))
    entries.push(JSON.stringify(unlabelledEntry(file, values.split, s)));
}
console.log(entries.join(",\n"));
