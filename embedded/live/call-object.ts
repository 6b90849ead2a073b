/**
 * The wire shapes of docs/upstream.md §5 (call object, transcripts, segments, summary, participants, recordings) and the
 * sentence frame of §6, built from a call entry and, when there is one, its runtime.
 */
import type { CallEntry, EnrichmentDigest, TextEnrichment, TranscriptView } from "./call-store";
import type { CallEnrichment, CallRuntime, CallStatus, SpokenSentence } from "./call";
import { stableUuid } from "./ids";

export const LANGUAGE = "en-US";

export const transcriptId = (callId: string, type: "LIVE" | "NON_LIVE") =>
  stableUuid(`${callId}|transcript|${type}`);

/** "HH:MM:SS" offset from the call start. */
export function offsetClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

export interface MediaLinks {
  hls: string;
  mp3: string;
  pdf: string;
}

export interface CallObjectOptions {
  nowMs: number;
  /** Leave `transcripts` out (`info_only=true`). */
  infoOnly: boolean;
  /** The transcript (a live run's, or a historical call's planned one); null for metadata only. */
  transcript: TranscriptView | null;
  /**
   * Enrichment to show: the runtime's, or a historical call's; a digest (summary and participants only) is enough
   * without the transcript.
   */
  enrichment: CallEnrichment | TextEnrichment | EnrichmentDigest | null;
  /** `audio=true`: the runtime holding audio, or null when there is none. */
  recordings?: { runtime: CallRuntime | null; links: MediaLinks } | undefined;
  /** `pdf=true` and enriched. */
  pdfLink?: string | undefined;
}

function statusOf(entry: CallEntry): CallStatus {
  return entry.live ? entry.live.status : "COMPLETED";
}

function endTimeOf(entry: CallEntry): Date | null {
  if (entry.live) return entry.live.endTime;
  return new Date(entry.startTime.getTime() + entry.plannedSeconds * 1000);
}

export function segmentsOf(
  sentences: readonly SpokenSentence[],
  names: Map<string, string> | null,
  sentiments: readonly number[] | null,
) {
  return sentences.map((s, i) => ({
    segment_id: s.sequence,
    speaker: names?.get(s.speakerLabel) ?? s.speakerLabel,
    start_time: offsetClock(s.startMs),
    end_time: offsetClock(s.endMs),
    start_ms: s.startMs,
    end_ms: s.endMs,
    confidence: s.confidence,
    text: s.text,
    sentiment: sentiments ? (sentiments[i] ?? 0) : null,
  }));
}

function transcript(callId: string, type: "LIVE" | "NON_LIVE", segments: ReturnType<typeof segmentsOf>) {
  const confidence =
    segments.length === 0
      ? 0
      : Math.round((segments.reduce((s, x) => s + x.confidence, 0) / segments.length) * 1000) / 1000;
  return {
    transcript_id: transcriptId(callId, type),
    type,
    language: LANGUAGE,
    confidence_score: confidence,
    text: segments.map((s) => s.text).join(" "),
    segments,
  };
}

export function summaryObject(entry: CallEntry, enrichment: EnrichmentDigest) {
  const at = enrichment.enrichedAt.toISOString();
  return {
    summary_id: stableUuid(`${entry.callId}|summary`),
    call_id: entry.callId,
    transcript_id: transcriptId(entry.callId, "NON_LIVE"),
    symbol: entry.company.symbol,
    summary: enrichment.result.summaryLines.join("\n"),
    sentiment: enrichment.result.overallSentiment,
    language: LANGUAGE,
    created_at: at,
    updated_at: at,
  };
}

export function participantsOf(entry: CallEntry, enrichment: EnrichmentDigest | null) {
  if (!enrichment) return [];
  return enrichment.result.participants.map((p, i) => ({
    participant_id: stableUuid(`${entry.callId}|participant|${i}`),
    call_id: entry.callId,
    name: p.name,
    // Executives are identified by title ("Chief Financial Officer"); others by what they are ("Analyst").
    role: p.role === "Executive" ? p.title : p.role,
    organization: p.organization,
    mentions: p.mentions,
    human_verified: false,
  }));
}

export function callObject(entry: CallEntry, options: CallObjectOptions): Record<string, unknown> {
  const { transcript: view, enrichment } = options;
  const status = statusOf(entry);
  const endTime = endTimeOf(entry);
  const durationSeconds = entry.live
    ? entry.live.durationSeconds(options.nowMs)
    : Math.round(((endTime?.getTime() ?? entry.startTime.getTime()) - entry.startTime.getTime()) / 1000);
  const updatedAt = entry.live
    ? entry.live.updatedAt
    : (enrichment?.enrichedAt ?? endTime ?? entry.startTime);
  const body: Record<string, unknown> = {
    call_id: entry.callId,
    call_title: entry.title,
    symbol: entry.company.symbol,
    name: entry.company.name,
    exchange: entry.company.exchange,
    period: entry.record.period,
    year: entry.record.period_year,
    start_time: entry.startTime.toISOString(),
    end_time: status === "COMPLETED" && endTime ? endTime.toISOString() : null,
    duration: durationSeconds,
    status,
    created_at: entry.startTime.toISOString(),
    updated_at: updatedAt.toISOString(),
  };
  if (!options.infoOnly) {
    const sentences = view?.sentences ?? [];
    const transcripts = [transcript(entry.callId, "LIVE", segmentsOf(sentences, null, null))];
    const full = view && enrichment && "input" in enrichment ? (enrichment as TextEnrichment) : null;
    if (full) {
      const names = new Map(full.input.speakers.map((s) => [s.label, s.name]));
      transcripts.push(
        transcript(entry.callId, "NON_LIVE", segmentsOf(sentences, names, full.result.segmentSentiments)),
      );
    }
    body.transcripts = transcripts;
  }
  body.summary = enrichment ? summaryObject(entry, enrichment) : null;
  body.participants = participantsOf(entry, enrichment);
  if (options.recordings) {
    const { runtime: audio, links } = options.recordings;
    const track = audio?.track;
    const formats: { file_link: string; content_type: string; quality: string }[] = [];
    if (track) {
      formats.push({ file_link: links.hls, content_type: "application/vnd.apple.mpegurl", quality: "720p" });
      if (track.isFinished && audio?.status === "COMPLETED") {
        formats.push({ file_link: links.mp3, content_type: "audio/mpeg", quality: "192kbps" });
      }
    }
    body.recordings =
      formats.length === 0
        ? []
        : [
            {
              recording_id: stableUuid(`${entry.callId}|recording`),
              language: LANGUAGE,
              duration: durationSeconds,
              formats,
            },
          ];
  }
  if (options.pdfLink) body.pdf = { file_link: options.pdfLink, content_type: "application/pdf" };
  return body;
}

/** The §6 sentence frame. */
export function sentenceFrame(runtime: CallRuntime, sentence: SpokenSentence, isLast: boolean) {
  const start = runtime.info.startTime.getTime();
  const company = runtime.info.company;
  return {
    call_id: runtime.callId,
    transcript_id: transcriptId(runtime.callId, "LIVE"),
    call_title: runtime.script.title,
    symbol: company.symbol,
    exchange: company.exchange,
    name: company.name,
    sequence: sentence.sequence,
    sentence: sentence.text,
    speaker: sentence.speakerLabel,
    start_time: new Date(start + sentence.startMs).toISOString(),
    end_time: new Date(start + sentence.endMs).toISOString(),
    words: sentence.words,
    confidence: sentence.confidence,
    type: "LIVE",
    language: LANGUAGE,
    status: isLast ? "COMPLETE" : "IN_PROGRESS",
    created_time: sentence.releasedAt.toISOString(),
  };
}
