/** The part of a transcript segment the insights read (lib/schemas/calls `Segment` satisfies it). */
export interface TranscriptSentence {
  sequence: number;
  /** Diarization label (`OPERATOR`, `SPEAKER_1`, …). */
  speaker: string;
  /** The speaker's name once the call is enriched. */
  speakerName?: string | null;
  startMs: number;
  endMs: number;
  text: string;
  sentiment?: number | null;
}

export interface TranscriptParticipant {
  name: string;
  role: string | null;
  organization: string | null;
}

export function isOperator(s: Pick<TranscriptSentence, "speaker" | "speakerName">): boolean {
  return /^operator$/i.test(s.speaker) || /^operator$/i.test(s.speakerName ?? "");
}
