/**
 * Post-call enrichment (docs/upstream.md §5): segment and overall sentiment, extractive summary, participants and the PDF.
 * Pure functions of the input: no clock, no randomness, no network, so an enriched call can be rebuilt on demand
 * and always reads the same.
 */
import { buildParticipants } from "./participants";
import { overallSentiment, scoreText } from "./sentiment";
import { summarize } from "./summary";
import type { Enricher, EnrichmentInput, EnrichmentResult, ParticipantRole } from "./types";

export type * from "./types";

/** Four decimals are plenty for a −1..1 score and keep the JSON stable and short. */
const round = (value: number): number => {
  const rounded = Math.round(value * 10_000) / 10_000;
  return Object.is(rounded, -0) ? 0 : rounded;
};

export function enrich(input: EnrichmentInput): EnrichmentResult {
  const roles = new Map<string, ParticipantRole>(
    input.speakers.map((speaker) => [speaker.label, speaker.role]),
  );
  const roleOf = (label: string): ParticipantRole | null => roles.get(label) ?? null;
  const scored = input.segments.map((segment) => ({
    role: roleOf(segment.speakerLabel),
    sentiment: scoreText(segment.text),
  }));
  const summary = summarize(
    input.segments.map((segment) => ({
      sequence: segment.sequence,
      text: segment.text,
      role: roleOf(segment.speakerLabel),
    })),
  );
  return {
    segmentSentiments: scored.map((entry) => round(entry.sentiment.score)),
    overallSentiment: round(overallSentiment(scored)),
    summaryLines: summary.lines,
    summarySequences: summary.sequences,
    participants: buildParticipants(input),
  };
}

export function createEnricher(): Enricher {
  return {
    enrich,
    // pdfkit (with its fonts and codecs) costs ~1 s of start-up to import: it is loaded when a PDF is first asked for.
    renderPdf: async (input, result) => (await import("./pdf")).renderTranscriptPdf(input, result),
  };
}
