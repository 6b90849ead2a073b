/**
 * Post-call enrichment of the embedded service (docs/upstream.md §5: summary, participants, segment sentiment,
 * speaker names, PDF). Pure and deterministic: the same transcript always enriches the same way.
 */

export type ParticipantRole = "Operator" | "Executive" | "Analyst";

export interface EnrichmentSpeaker {
  /** Diarization label used in the LIVE transcript: "OPERATOR", "SPEAKER_1", … */
  label: string;
  name: string; // "Dana Whitfield"
  role: ParticipantRole;
  title: string; // "Chief Financial Officer", "Analyst", "Operator"
  organization: string; // the company, or the analyst's firm
}

export interface EnrichmentSegment {
  sequence: number;
  speakerLabel: string;
  text: string;
  startMs: number;
  endMs: number;
}

export interface EnrichmentInput {
  callId: string;
  callTitle: string;
  symbol: string;
  companyName: string;
  startTime: Date;
  speakers: EnrichmentSpeaker[];
  segments: EnrichmentSegment[];
}

export interface EnrichedParticipant {
  name: string;
  role: ParticipantRole;
  title: string;
  organization: string;
  /** Segments spoken by this participant plus times their name is said by others. */
  mentions: number;
}

export interface EnrichmentResult {
  /** One score per input segment, same order, each in [−1, 1]; 0 = neutral. */
  segmentSentiments: number[];
  /** Overall call sentiment in [−1, 1]: evidence-weighted mean favouring executives' prepared remarks and answers. */
  overallSentiment: number;
  /** Extractive summary (TextRank): 5–8 sentences of the transcript (fewer if it has fewer), in transcript order. */
  summaryLines: string[];
  /** For each summary line, the `sequence` of the segment it came from (lets the UI link a point to its sentence). */
  summarySequences: number[];
  /** Ordered operator, executives, analysts; input order within a role. */
  participants: EnrichedParticipant[];
}

export interface Enricher {
  enrich(input: EnrichmentInput): EnrichmentResult;
  /** A PDF transcript: title, date, participants, summary, then every segment with speaker name and time. */
  renderPdf(input: EnrichmentInput, result: EnrichmentResult): Promise<Buffer>;
}
