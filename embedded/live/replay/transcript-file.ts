/**
 * A transcript file of the earnings-call corpus format (docs/upstream.md §7, "Replay"): prepared remarks and Q&A as
 * speaker turns, and the participants as `Name--Title` (the company's people) or `Name--Firm -- Analyst`. Read
 * leniently: a file with a missing list, an odd turn or a participant without a title still replays what it has;
 * only a file that is not JSON, or holds no turn at all, is refused.
 */
import { z } from "zod";
import { splitSentences } from "../../../common/sentiment/text";

/** `AAPL_q1_2022.json`: the ticker, the company's own fiscal quarter and year. */
const FILE_NAME = /^([A-Za-z0-9][A-Za-z0-9.-]{0,9})_q([1-4])_(\d{4})\.json$/;

export interface TranscriptName {
  ticker: string;
  period: "Q1" | "Q2" | "Q3" | "Q4";
  year: number;
}

/** The ticker and quarter a file's name says, or null when it does not follow `<TICKER>_q<N>_<YEAR>.json`. */
export function parseTranscriptName(fileName: string): TranscriptName | null {
  const match = FILE_NAME.exec(fileName);
  if (!match) return null;
  return {
    ticker: match[1]!.toUpperCase(),
    period: `Q${match[2]}` as TranscriptName["period"],
    year: Number(match[3]),
  };
}

export interface TranscriptParticipant {
  name: string;
  role: "Executive" | "Analyst" | "Unknown";
  /** "Chief Financial Officer", "Analyst"; empty when the file gives none. */
  title: string;
  /** The analyst's firm; empty for the company's people (the file does not name the company). */
  organization: string;
}

/**
 * `Jane Doe--Chief Financial Officer` → an executive; `John Roe--Crestline Research -- Analyst` → an analyst of
 * Crestline Research; a bare name (`Unidentified Participant`) → unknown.
 */
export function parseParticipant(entry: string): TranscriptParticipant | null {
  const parts = entry.split("--").map((p) => p.trim());
  const name = parts[0] ?? "";
  if (name === "") return null;
  if (parts.length === 1) return { name, role: "Unknown", title: "", organization: "" };
  const last = parts.at(-1)!.replace(/\.$/, "");
  if (parts.length >= 3 || /\banalyst\b/i.test(last)) {
    const firm = parts.length >= 3 ? parts.slice(1, -1).join(" -- ") : "";
    return { name, role: "Analyst", title: last || "Analyst", organization: firm };
  }
  return { name, role: "Executive", title: parts.slice(1).join(" -- "), organization: "" };
}

export interface TranscriptTurn {
  speaker: string;
  section: "prepared" | "qa";
  /** The turn's sentences, verbatim but for whitespace (paragraphs split first, then sentences). */
  sentences: string[];
}

export interface TranscriptFile {
  name: TranscriptName;
  turns: TranscriptTurn[];
  participants: TranscriptParticipant[];
}

const turnSchema = z.object({ speaker: z.string(), speech: z.string() });
const fileSchema = z.object({
  prepared_remarks: z.array(z.unknown()).catch([]).default([]),
  q_and_a: z.array(z.unknown()).catch([]).default([]),
  participants: z.array(z.unknown()).catch([]).default([]),
});

export class TranscriptFileError extends Error {}

function turnsOf(raw: readonly unknown[], section: TranscriptTurn["section"]): TranscriptTurn[] {
  const turns: TranscriptTurn[] = [];
  for (const item of raw) {
    const turn = turnSchema.safeParse(item);
    if (!turn.success) continue;
    const speaker = turn.data.speaker.replace(/\s+/g, " ").trim() || "Unknown speaker";
    const sentences = turn.data.speech.split(/\n+/).flatMap((paragraph) => splitSentences(paragraph));
    if (sentences.length > 0) turns.push({ speaker, section, sentences });
  }
  return turns;
}

/** Reads a file's text; throws TranscriptFileError with a readable reason when nothing can be replayed. */
export function parseTranscriptFile(name: TranscriptName, text: string): TranscriptFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TranscriptFileError("the file is not JSON");
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) throw new TranscriptFileError("the file is not a transcript object");
  const turns = [...turnsOf(parsed.data.prepared_remarks, "prepared"), ...turnsOf(parsed.data.q_and_a, "qa")];
  if (turns.length === 0) throw new TranscriptFileError("the file has no speaker turn to replay");
  const participants = parsed.data.participants
    .flatMap((entry) => (typeof entry === "string" ? [parseParticipant(entry)] : []))
    .filter((p): p is TranscriptParticipant => p !== null);
  return { name, turns, participants };
}
