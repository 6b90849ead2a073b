/**
 * Draws the sentences of the labelled set (run once; its output is bench/language/labels.json, whose figures were
 * then written by hand). Seeded, so the draw can be checked: 26 companies on each side of the split, one call each,
 * and from each call up to ten sentences in three strata:
 *
 * - 6 management sentences that state an amount (where figures are);
 * - 1 analyst sentence with an amount or forward-looking words (what must not become the company's figure);
 * - 3 sentences of anyone with forward-looking words (what a guidance alert could fire on).
 *
 *   CALLROOM_CORPUS_DIR=… npx tsx bench/language/sample.ts > bench/language/labels.json
 *
 * The file points at each sentence (file, section, turn, character offset and length); it holds no corpus text.
 */
import { corpusFiles, CORPUS_DIR, readCall, splitOf } from "./corpus";
import { drawStrata, filesByCompany, seededShuffle, unlabelledEntry } from "./strata";

const CALLS_PER_SIDE = 26;

const files = corpusFiles(CORPUS_DIR);
if (!files) {
  console.error(`no corpus at ${CORPUS_DIR}`);
  process.exit(1);
}
const shuffle = seededShuffle(20_250_125);
const pick = <T>(xs: T[], n: number): T[] => shuffle([...xs]).slice(0, n);
const byCompany = filesByCompany(files);
const sentences: object[] = [];
for (const side of ["tuning", "heldout"] as const) {
  const companies = shuffle([...byCompany.keys()].filter((s) => splitOf(s) === side));
  let taken = 0;
  for (const symbol of companies) {
    if (taken === CALLS_PER_SIDE) break;
    const file = pick(byCompany.get(symbol)!, 1)[0]!;
    const call = readCall(CORPUS_DIR, file);
    if (!call || !call.sentences.some((s) => s.section === "q_and_a")) continue;
    taken++;
    for (const s of drawStrata(call, shuffle)) sentences.push(unlabelledEntry(file, side, s));
  }
}
console.log(JSON.stringify({ version: 1, sentences }, null, 1));
