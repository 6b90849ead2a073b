/**
 * The real-call corpus as the language evaluation reads it (docs/insights.md, "Evaluation on real calls"): one JSON
 * file per call in the corpus folder beside the project, read at run time and never copied into the repository. A
 * file that does not have the expected shape is skipped, not fatal.
 *
 * Each call becomes the sentence stream a live call would carry: turns split into sentences, the operator's turns
 * labelled `OPERATOR`, every other person `SPEAKER_n` (n by order of first appearance, stable per person, as the
 * live feed labels voices), timed at about 150 words a minute. Each sentence keeps where it came from (section,
 * turn, character offset in the turn's text), which is how the labels point at sentences without copying them.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
/**
 * The folder beside the project root that holds the corpus; `CALLROOM_CORPUS_DIR` points elsewhere (a worktree whose
 * parent folder has no `shared`).
 */
export const CORPUS_DIR =
  process.env.CALLROOM_CORPUS_DIR ?? join(ROOT, "..", "shared", "data", "earnings-calls");

const turnSchema = z.object({ speaker: z.string(), speech: z.string() });
const fileSchema = z.object({
  prepared_remarks: z.array(turnSchema).default([]),
  q_and_a: z.array(turnSchema).default([]),
  participants: z.array(z.string()).default([]),
});

export type Section = "prepared_remarks" | "q_and_a";
export type Role = "operator" | "management" | "analyst";

export interface Participant {
  name: string;
  /** The title for the company's people, the firm for analysts. */
  title: string | null;
  firm: string | null;
  isAnalyst: boolean;
}

export interface CorpusSentence {
  sequence: number;
  section: Section;
  turn: number;
  /** Character offset of the sentence in the turn's `speech`, and its length. */
  offset: number;
  length: number;
  text: string;
  /** The person as the file names them ("Operator" for the operator). */
  person: string;
  /** The live label: `OPERATOR` or `SPEAKER_n`. */
  speaker: string;
  role: Role;
  startMs: number;
  endMs: number;
}

export interface CorpusCall {
  file: string;
  symbol: string;
  quarter: number;
  year: number;
  participants: Participant[];
  sentences: CorpusSentence[];
}

/** `AAPL_q3_2021.json` → ticker, fiscal quarter and year; null for any other name. */
export function parseFileName(file: string): { symbol: string; quarter: number; year: number } | null {
  const m = /^([A-Z0-9.-]+)_q([1-4])_(\d{4})\.json$/i.exec(file);
  return m ? { symbol: m[1]!.toUpperCase(), quarter: Number(m[2]), year: Number(m[3]) } : null;
}

/** "Jane Doe--Firm -- Analyst" and "John Roe--Chief Financial Officer". */
export function parseParticipant(raw: string): Participant {
  const [name, ...rest] = raw.split("--");
  const tail = rest.join("--").trim();
  const analyst = /\s*-+\s*Analyst\s*$/i.exec(tail);
  if (analyst) {
    const firm = tail.slice(0, analyst.index).trim();
    return { name: name!.trim(), title: null, firm: firm || null, isAnalyst: true };
  }
  return { name: name!.trim(), title: tail || null, firm: null, isAnalyst: false };
}

/** Abbreviations whose period does not end a sentence. */
const ABBREVIATION =
  /(?:\b(?:Mr|Mrs|Ms|Dr|Inc|Corp|Co|Ltd|Jr|Sr|St|vs|approx|No|Nos|etc|Mt|Ft|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)|\b[A-Z](?:\.[A-Z])*)\.$/;

/** Sentences of one turn with their offsets: paragraphs, then sentence ends followed by a capital or a digit. */
export function splitSentences(speech: string): { offset: number; length: number }[] {
  const out: { offset: number; length: number }[] = [];
  const push = (start: number, end: number) => {
    while (start < end && /\s/.test(speech[start]!)) start++;
    while (end > start && /\s/.test(speech[end - 1]!)) end--;
    if (end > start) out.push({ offset: start, length: end - start });
  };
  const boundary = /[.!?]["”’)]?\s+(?=["“‘(]?[A-Z0-9$])|\n+/g;
  let start = 0;
  for (const m of speech.matchAll(boundary)) {
    const end = m.index + m[0].trimEnd().length;
    if (m[0][0] !== "\n" && ABBREVIATION.test(speech.slice(Math.max(start, end - 12), end))) continue;
    push(start, end);
    start = m.index + m[0].length;
  }
  push(start, speech.length);
  return out;
}

const WORDS_PER_MINUTE = 150;

export function readCall(dir: string, file: string): CorpusCall | null {
  const name = parseFileName(file);
  if (!name) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dir, file), "utf8"));
  } catch {
    return null;
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) return null;
  const participants = parsed.data.participants.map(parseParticipant);
  const analysts = new Set(participants.filter((p) => p.isAnalyst).map((p) => p.name));
  const labels = new Map<string, string>();
  const sentences: CorpusSentence[] = [];
  let clock = 0;
  for (const section of ["prepared_remarks", "q_and_a"] as const) {
    parsed.data[section].forEach((turn, t) => {
      const person = turn.speaker.trim();
      const isOperator = /^operator$/i.test(person);
      let speaker = isOperator ? "OPERATOR" : labels.get(person);
      if (!speaker) {
        speaker = `SPEAKER_${labels.size}`;
        labels.set(person, speaker);
      }
      const role: Role = isOperator ? "operator" : analysts.has(person) ? "analyst" : "management";
      for (const { offset, length } of splitSentences(turn.speech)) {
        const text = turn.speech.slice(offset, offset + length);
        const ms = Math.max(1000, (text.split(/\s+/).length / WORDS_PER_MINUTE) * 60_000);
        sentences.push({
          sequence: sentences.length,
          section,
          turn: t,
          offset,
          length,
          text,
          person,
          speaker,
          role,
          startMs: Math.round(clock),
          endMs: Math.round(clock + ms),
        });
        clock += ms + 300;
      }
    });
  }
  return { file, symbol: name.symbol, quarter: name.quarter, year: name.year, participants, sentences };
}

export function corpusFiles(dir = CORPUS_DIR): string[] | null {
  if (!existsSync(dir)) return null;
  return readdirSync(dir)
    .filter((f) => parseFileName(f) !== null)
    .sort();
}

/**
 * Tuning or held out, by company: a hash of the ticker, so every call of a company falls on the same side and the
 * split needs no list. The held-out side is only ever read as totals while the rules are tuned.
 */
export function splitOf(symbol: string): "tuning" | "heldout" {
  const h = createHash("sha256").update(`callroom-language:${symbol.toUpperCase()}`).digest();
  return h[0]! < 128 ? "tuning" : "heldout";
}
