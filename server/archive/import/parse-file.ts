import "server-only";
import { createHash } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { liveSentiment } from "@/common/sentiment";
import { splitSentences } from "@/common/sentiment/text";
import { callFromBody } from "../../upstream/calls";
import { IMPORTED_ID_PREFIX } from "../read-calls";
import type { ArchivableCall, ImportOrigin } from "../store";

/**
 * Reads a transcript file for `npm run import` (docs/storage.md, "Imported calls"): either a corpus transcript
 * (`<TICKER>_q<N>_<YEAR>.json`: prepared remarks and Q&A as speakers' turns, and the participants) or the market-data
 * service's own call JSON (`GET /api/v1/transcripts/calls/{call_id}`, read by the same conversion as a live answer).
 * Pure: the same bytes give the same call, id included, in every database.
 */

export interface ImportedCall {
  call: ArchivableCall;
  origin: ImportOrigin;
}

/** Speaking pace for sentence times (no audio: the times order the transcript and place notes). */
const WORDS_PER_MINUTE = 150;

const turnSchema = z.object({
  speaker: z.string().trim().min(1).catch("Unknown speaker"),
  speech: z.string(),
});
const corpusSchema = z.object({
  prepared_remarks: z.array(turnSchema).default([]),
  q_and_a: z
    .array(turnSchema)
    .nullish()
    .transform((v) => v ?? []),
  participants: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
});

const CORPUS_NAME = /^([A-Za-z0-9.\-]{1,12})_q([1-4])_(\d{4})$/i;

/**
 * The call id of an imported file: `imp-` and the file's name made URL-safe (`AAP_q1_2021.json` → `imp-aap-q1-2021`),
 * with a digest of the name when that would be empty or too long. The name, not the bytes: a corrected file of the
 * same call replaces it instead of adding a second copy.
 */
export function importedCallId(fileName: string): string {
  const base = path.basename(fileName).replace(/\.json$/i, "");
  const slug = base
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug !== "" && slug.length <= 56) return `${IMPORTED_ID_PREFIX}${slug}`;
  const digest = createHash("sha256").update(base).digest("hex").slice(0, 12);
  return `${IMPORTED_ID_PREFIX}${slug.slice(0, 43).replace(/-+$/, "")}-${digest}`.replace(/^imp--/, "imp-");
}

/**
 * The corpus carries no date: a call is placed on the 25th of the month after its fiscal quarter ends (Q1 2021 →
 * 2021-04-25 13:00 UTC), so a company's imported calls sort by quarter and "the previous call" is the previous
 * quarter's.
 */
export function estimatedStart(quarter: number, year: number): string {
  const monthAfter = quarter * 3; // 0-based: Q1 → April (3), Q4 → January of the next year (12)
  return new Date(Date.UTC(year + Math.floor(monthAfter / 12), monthAfter % 12, 25, 13)).toISOString();
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** "Name--Title" and "Name--Firm -- Analyst" (the corpus's participants list). */
function parseParticipant(entry: string): ArchivableCall["participants"][number] | null {
  const at = entry.indexOf("--");
  const name = (at < 0 ? entry : entry.slice(0, at)).trim();
  if (name === "") return null;
  const rest = at < 0 ? "" : entry.slice(at + 2).trim();
  const analyst = /^(.*?)\s*--\s*analyst\s*$/i.exec(rest);
  return {
    name,
    role: analyst ? "Analyst" : rest || null,
    organization: analyst ? analyst[1]!.trim() || null : null,
    mentions: null,
    isHumanVerified: false,
  };
}

function parseCorpus(fileName: string, body: unknown, digest: string): ImportedCall {
  const base = path.basename(fileName).replace(/\.json$/i, "");
  const named = CORPUS_NAME.exec(base);
  if (!named) {
    throw new Error(
      `a transcript file is named <TICKER>_q<N>_<YEAR>.json (this one is ${path.basename(fileName)})`,
    );
  }
  const symbol = named[1]!.toUpperCase();
  const quarter = Number(named[2]);
  const year = Number(named[3]);
  const parsed = corpusSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`not a transcript: ${issue?.path.join(".") || "file"}: ${issue?.message ?? "invalid"}`);
  }
  const { prepared_remarks: prepared, q_and_a: qa, participants } = parsed.data;
  const labels = new Map<string, string>();
  const labelOf = (speaker: string) => {
    if (/^operator$/i.test(speaker)) return "OPERATOR";
    let label = labels.get(speaker);
    if (!label) labels.set(speaker, (label = `SPEAKER_${labels.size + 1}`));
    return label;
  };
  const segments: ArchivableCall["segments"] = [];
  const sections: ImportOrigin["sections"] = [];
  let atMs = 0;
  const turns = [
    ...prepared.map((t) => ({ ...t, section: "prepared" as const })),
    ...qa.map((t) => ({ ...t, section: "qa" as const })),
  ];
  for (const turn of turns) {
    const speaker = labelOf(turn.speaker);
    for (const paragraph of turn.speech.split(/\n+/)) {
      for (const text of splitSentences(paragraph)) {
        const durationMs = Math.max(1, Math.round((words(text) / WORDS_PER_MINUTE) * 60_000));
        segments.push({
          sequence: segments.length + 1,
          speaker,
          speakerName: speaker === "OPERATOR" ? null : turn.speaker,
          startMs: atMs,
          endMs: atMs + durationMs,
          text,
          confidence: null,
          sentiment: liveSentiment(text),
          sentimentSource: "live",
        });
        sections.push(turn.section);
        atMs += durationMs;
      }
    }
  }
  if (segments.length === 0) throw new Error("the transcript holds no sentence");
  const startTime = estimatedStart(quarter, year);
  const durationSeconds = Math.round(atMs / 1000);
  return {
    call: {
      callId: importedCallId(fileName),
      title: `${symbol} Q${quarter} ${year} earnings call`,
      headline: null,
      symbol,
      name: symbol,
      exchange: null,
      period: `Q${quarter}`,
      year,
      startTime,
      endTime: new Date(Date.parse(startTime) + durationSeconds * 1000).toISOString(),
      durationSeconds,
      status: "completed",
      segments,
      summary: null,
      participants: participants.flatMap((p) => parseParticipant(p) ?? []),
      hasAudio: false,
      hasMp3: false,
      hasPdf: false,
    },
    origin: { contentHash: digest, sections },
  };
}

function parseServiceCall(body: unknown, digest: string): ImportedCall {
  let call: ArchivableCall;
  try {
    call = callFromBody(body);
  } catch (error) {
    const first = error instanceof z.ZodError ? error.issues[0] : undefined;
    throw new Error(
      `neither a corpus transcript nor the service's call JSON${first ? ` (${first.path.join(".")}: ${first.message})` : ""}`,
    );
  }
  if (call.segments.length === 0) throw new Error("the call holds no sentence");
  // Ordered with strictly increasing sequences, as the archive and `GET /api/calls/{id}` promise.
  const segments = [...call.segments].sort((a, b) => a.sequence - b.sequence);
  return {
    call: {
      ...call,
      segments: segments.filter((s, i) => i === 0 || s.sequence > segments[i - 1]!.sequence),
      hasAudio: false,
      hasMp3: false,
      hasPdf: false,
    },
    origin: { contentHash: digest, sections: null },
  };
}

/** A file's bytes → the call to store. Throws an Error whose message says what is wrong with the file. */
export function parseImportFile(fileName: string, bytes: Buffer | string): ImportedCall {
  const digest = createHash("sha256").update(bytes).digest("hex");
  let body: unknown;
  try {
    body = JSON.parse(typeof bytes === "string" ? bytes : bytes.toString("utf8"));
  } catch {
    throw new Error("not JSON");
  }
  if (body && typeof body === "object" && ("prepared_remarks" in body || "q_and_a" in body)) {
    return parseCorpus(fileName, body, digest);
  }
  return parseServiceCall(body, digest);
}
