import "server-only";
import type { z } from "zod";
import { normalizeCallId } from "@/lib/schemas/calls";
import type { Call, CallListItem, CallStatus, CallSummary, Participant, Segment } from "@/lib/schemas/calls";
import { liveSentiment } from "@/common/sentiment";
import { toBool, toInt, toNumber, toText } from "../values";
import {
  upstreamCallListSchema,
  upstreamCallSchema,
  upstreamSummaryResponseSchema,
  type UpstreamCall,
  type UpstreamCallList,
  type UpstreamSegment,
  type UpstreamSummary,
  type UpstreamSummaryList,
  upstreamParticipantSchema,
} from "./wire";

/**
 * Calls and summaries: the service's shapes (`wire.ts`) → ours (lib/schemas/calls.ts). Every upstream quirk ends
 * here; signed media links leave only through `toMediaLinks` (the media proxy, server-side).
 */

const LIVE_STATUSES = new Set(["STARTED", "IN_PROGRESS", "INPROGRESS", "LIVE", "RUNNING", "ACTIVE"]);
const DONE_STATUSES = new Set(["COMPLETED", "COMPLETE", "ENDED", "FINISHED", "DONE", "ENRICHED"]);

/**
 * Upstream status → ours. Enrichment does not change the upstream status (it fills `summary`), so `enriched` is
 * "finished and summarised". Unknown values are judged by `end_time`: a call with an end is over.
 */
export function toCallStatus(status: unknown, hasSummary: boolean, endTime: string | null): CallStatus {
  const s = (toText(status) ?? "").toUpperCase().replace(/[\s-]/g, "_");
  const finished = DONE_STATUSES.has(s) || (!LIVE_STATUSES.has(s) && endTime !== null);
  if (!finished) return "live";
  return hasSummary ? "enriched" : "completed";
}

/** "HH:MM:SS(.fff)" offset → ms. */
export function hmsToMs(value: unknown): number | null {
  const t = toText(value);
  if (t === null) return null;
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(t);
  if (!m) return null;
  return Math.round(((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000);
}

/**
 * A segment offset: the contract's "HH:MM:SS", or the documented service's milliseconds (a number or a digit string,
 * `"115240"`).
 */
export function offsetToMs(value: unknown): number | null {
  if (typeof value === "number" || (typeof value === "string" && /^\s*\d+(\.\d+)?\s*$/.test(value))) {
    return toNumber(value);
  }
  return hmsToMs(value);
}

function toIsoTime(value: unknown): string | null {
  const t = toText(value);
  if (t === null) return null;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function transcriptsOfType(call: UpstreamCall, type: "LIVE" | "NON_LIVE") {
  return (call.transcripts ?? []).filter(
    (t) => (toText(t.type) ?? "").toUpperCase().replace("-", "_") === type,
  );
}

interface BaseSegment {
  sequence: number;
  speaker: string;
  startMs: number;
  endMs: number;
  text: string;
  confidence: number | null;
  sentiment: number | null;
}

function toBaseSegments(segments: UpstreamSegment[] | null | undefined): BaseSegment[] {
  const out: BaseSegment[] = [];
  (segments ?? []).forEach((s, index) => {
    const sequence = toInt(s.segment_id) ?? index;
    const startMs = toNumber(s.start_ms) ?? offsetToMs(s.start_time) ?? 0;
    const endMs = toNumber(s.end_ms) ?? offsetToMs(s.end_time) ?? startMs;
    out.push({
      sequence,
      speaker: toText(s.speaker) ?? "UNKNOWN",
      startMs,
      endMs,
      text: toText(s.text) ?? "",
      confidence: toNumber(s.confidence),
      sentiment: toNumber(s.sentiment),
    });
  });
  return out.sort((a, b) => a.sequence - b.sequence);
}

/**
 * A segment's sentiment: the upstream's (it scores only at enrichment) when present, else the same live estimate
 * the live bus puts on the stream, so the page and the stream agree sentence for sentence.
 */
export function segmentSentiment(
  upstream: number | null,
  text: string,
): Pick<Segment, "sentiment" | "sentimentSource"> {
  if (upstream !== null && Number.isFinite(upstream)) {
    return { sentiment: Math.max(-1, Math.min(1, upstream)), sentimentSource: "enriched" };
  }
  return { sentiment: liveSentiment(text), sentimentSource: "live" };
}

/**
 * The transcript as one list keyed by the live sequence: the `LIVE` transcript's sentences (diarization labels),
 * overlaid with the enriched `NON_LIVE` transcript's speaker names and sentiment for the same `segment_id`. Without
 * a `LIVE` transcript the final one stands alone.
 */
export function toSegments(call: UpstreamCall): Segment[] {
  const live = toBaseSegments(transcriptsOfType(call, "LIVE")[0]?.segments);
  const final = toBaseSegments(transcriptsOfType(call, "NON_LIVE")[0]?.segments);
  const finalBySeq = new Map(final.map((s) => [s.sequence, s]));
  const base = live.length > 0 ? live : final;
  const seen = new Set<number>();
  const out: Segment[] = [];
  for (const s of base) {
    if (seen.has(s.sequence)) continue;
    seen.add(s.sequence);
    const named = finalBySeq.get(s.sequence);
    out.push({
      sequence: s.sequence,
      speaker: s.speaker,
      speakerName: named && named.speaker !== s.speaker ? named.speaker : live.length > 0 ? null : s.speaker,
      startMs: s.startMs,
      endMs: s.endMs,
      text: s.text,
      confidence: s.confidence,
      ...segmentSentiment(named?.sentiment ?? s.sentiment, s.text),
    });
  }
  return out;
}

export function toCallSummary(
  raw: UpstreamSummary,
  fallback: { callId?: string; symbol?: string } = {},
): CallSummary {
  const text = toText(raw.summary) ?? "";
  return {
    callId: normalizeCallId(toText(raw.call_id) ?? fallback.callId ?? ""),
    symbol: (toText(raw.symbol) ?? fallback.symbol ?? "").toUpperCase(),
    points: text
      .split("\n")
      .map((l) => l.replace(/^\s*(?:[-•*]|\d+[.)])\s*/, "").trim())
      .filter(Boolean),
    sentiment: toNumber(raw.sentiment),
    language: toText(raw.language),
    createdAt: toIsoTime(raw.created_at),
    updatedAt: toIsoTime(raw.updated_at),
  };
}

function toParticipant(raw: z.infer<typeof upstreamParticipantSchema>): Participant | null {
  const name = toText(raw.name);
  if (!name) return null;
  return {
    name,
    role: toText(raw.role),
    organization: toText(raw.organization),
    mentions: toInt(raw.mentions),
    isHumanVerified: toBool(raw.human_verified) ?? false,
  };
}

const QUARTER_WORDS: Record<string, string> = { first: "Q1", second: "Q2", third: "Q3", fourth: "Q4" };

/**
 * Fiscal period and year named in a call's title: "Q4 2025 …", "2025 Q4", "FY 2025", "H1 2026", "fourth quarter
 * fiscal year 2025". Null parts when the text names none.
 */
export function periodFromTitle(text: string | null): { period: string | null; year: number | null } {
  if (!text) return { period: null, year: null };
  const direct = /\b(Q[1-4]|H[12]|FY)\s*[-']?\s*((?:19|20)\d{2})\b/i.exec(text);
  if (direct) return { period: direct[1]!.toUpperCase(), year: Number(direct[2]) };
  const reversed = /\b((?:19|20)\d{2})\s*[-/]?\s*(Q[1-4]|H[12])\b/i.exec(text);
  if (reversed) return { period: reversed[2]!.toUpperCase(), year: Number(reversed[1]) };
  const words =
    /\b(first|second|third|fourth)[\s-]+quarter\b(?:[\s,]+(?:of\s+)?(?:fiscal\s+)?(?:year\s+)?((?:19|20)\d{2}))?/i.exec(
      text,
    );
  if (words) {
    return {
      period: QUARTER_WORDS[words[1]!.toLowerCase()] ?? null,
      year: words[2] ? Number(words[2]) : null,
    };
  }
  const fullYear = /\b(?:full[\s-]+year|fiscal(?:\s+year)?)\s+((?:19|20)\d{2})\b/i.exec(text);
  if (fullYear) return { period: "FY", year: Number(fullYear[1]) };
  return { period: null, year: null };
}

/**
 * Title and headline. The contract's `call_title` is the formal title; the real service's is an AI-written headline
 * with the formal title in `description` (and a longer `headline` beside it). The formal title is the title, the
 * service's headline a subtitle.
 */
function titleAndHeadline(raw: UpstreamCall, name: string): { title: string; headline: string | null } {
  const description = toText(raw.description);
  const callTitle = toText(raw.call_title);
  const headlineField = toText(raw.headline);
  const title = description ?? callTitle ?? `${name} conference call`;
  const headline = description ? (callTitle ?? headlineField) : headlineField;
  return { title, headline: headline !== null && headline !== title ? headline : null };
}

/**
 * An ended call's length is its start-to-end span: the contract's `duration` is seconds, the documented service's is
 * minutes (docs/upstream.md §8), and the span is right for both. A live call has only `duration` (seconds so far).
 */
function durationSecondsOf(raw: UpstreamCall, endTime: string | null): number | null {
  const start = toIsoTime(raw.start_time);
  if (start !== null && endTime !== null) {
    const seconds = (Date.parse(endTime) - Date.parse(start)) / 1000;
    if (seconds >= 0) return Math.round(seconds);
  }
  return toNumber(raw.duration);
}

export function toCallListItem(raw: UpstreamCall): CallListItem {
  const endTime = toIsoTime(raw.end_time);
  const symbol = raw.symbol.trim().toUpperCase();
  const name = toText(raw.name) ?? symbol;
  const { title, headline } = titleAndHeadline(raw, name);
  const named = periodFromTitle(toText(raw.description) ?? toText(raw.call_title));
  return {
    callId: normalizeCallId(raw.call_id.trim()),
    title,
    headline,
    symbol,
    name,
    exchange: toText(raw.exchange),
    period: toText(raw.period) ?? named.period,
    year: toInt(raw.year) ?? named.year,
    startTime: toIsoTime(raw.start_time) ?? new Date(0).toISOString(),
    endTime,
    durationSeconds: durationSecondsOf(raw, endTime),
    status: toCallStatus(raw.status, raw.summary != null, endTime),
  };
}

/** Signed links of a call's media, server-side only (the media proxy). `null` = not available (yet). */
export interface MediaLinks {
  hls: string | null;
  mp3: string | null;
  pdf: string | null;
  /**
   * The call is over (completed or enriched). An ended call whose HLS exists but whose MP3 is not listed yet is
   * having its MP3 prepared (the service may render an old call's audio only when first asked for it); absent =
   * unknown, treated as live.
   */
  isEnded?: boolean;
}

function recordingsOf(raw: UpstreamCall) {
  const r = raw.recordings;
  const list = Array.isArray(r) ? r : r ? [r] : [];
  return raw.recording ? [...list, raw.recording] : list;
}

/**
 * The documented service gives some links relative to its base URL (`6825…/mp3/audio.mp3`); the media proxy needs
 * absolute ones. Without a base a relative link cannot be followed and counts as absent.
 */
function absoluteLink(link: string | null, baseUrl: string | undefined): string | null {
  if (link === null) return null;
  if (/^https?:\/\//i.test(link)) return link;
  if (!baseUrl) return null;
  try {
    return new URL(link.replace(/^\/+/, ""), baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`).toString();
  } catch {
    return null;
  }
}

/** `baseUrl`: the service's REST base, against which relative links resolve. */
export function toMediaLinks(raw: UpstreamCall, baseUrl?: string): MediaLinks {
  const formats = recordingsOf(raw).flatMap((r) => r.formats ?? []);
  const find = (test: (type: string, link: string) => boolean) => {
    for (const f of formats) {
      const link = absoluteLink(toText(f.file_link), baseUrl);
      const type = (toText(f.content_type) ?? "").toLowerCase();
      if (link && test(type, link)) return link;
    }
    return null;
  };
  return {
    hls: find((t, l) => t.includes("mpegurl") || /\.m3u8(\?|$)|\/hls(\?|$)/i.test(l)),
    mp3: find((t, l) => t === "audio/mpeg" || t === "audio/mp3" || /\.mp3(\?|$)|\/mp3(\?|$)/i.test(l)),
    pdf: absoluteLink(toText(raw.pdf?.file_link), baseUrl),
    isEnded: toCallStatus(raw.status, raw.summary != null, toIsoTime(raw.end_time)) !== "live",
  };
}

/**
 * Media flags. With `audio=true`/`pdf=true` the links themselves say; without them (the default read, because
 * asking for links makes the service sign them and, for an old call, possibly render its audio) the contract's
 * lifecycle does: HLS from the first sentence, MP3 from completion, PDF from enrichment.
 */
function toMediaFlags(raw: UpstreamCall, status: CallStatus, hasSentences: boolean) {
  // Only presence matters here, so any base resolves a relative link.
  const links = toMediaLinks(raw, "http://upstream.invalid/");
  const askedAudio = raw.recordings !== undefined || raw.recording !== undefined;
  const askedPdf = raw.pdf !== undefined;
  return {
    hasAudio: askedAudio ? links.hls !== null : status !== "live" || hasSentences,
    hasMp3: askedAudio ? links.mp3 !== null : status !== "live",
    hasPdf: askedPdf ? links.pdf !== null : status === "enriched",
  };
}

/**
 * What the live bus's gap fill needs of a call (server/live/sequencer.ts): who, when, its status and its transcript
 * in sequence order, unscored. The sequencer scores a sentence as it publishes it; scoring the whole call here (as
 * `toCall` does for pages) was work thrown away for every gap.
 */
export interface LiveTranscript {
  callId: string;
  symbol: string;
  name: string;
  startTime: string;
  status: CallStatus;
  segments: Omit<BaseSegment, "sentiment">[];
}

export function toLiveTranscript(raw: UpstreamCall): LiveTranscript {
  const symbol = raw.symbol.trim().toUpperCase();
  const live = toBaseSegments(transcriptsOfType(raw, "LIVE")[0]?.segments);
  const base = live.length > 0 ? live : toBaseSegments(transcriptsOfType(raw, "NON_LIVE")[0]?.segments);
  const seen = new Set<number>();
  const segments: Omit<BaseSegment, "sentiment">[] = [];
  for (const { sentiment: _unused, ...segment } of base) {
    if (seen.has(segment.sequence)) continue;
    seen.add(segment.sequence);
    segments.push(segment);
  }
  return {
    callId: normalizeCallId(raw.call_id.trim()),
    symbol,
    name: toText(raw.name) ?? symbol,
    startTime: toIsoTime(raw.start_time) ?? new Date(0).toISOString(),
    status: toCallStatus(raw.status, raw.summary != null, toIsoTime(raw.end_time)),
    segments,
  };
}

export function toCall(raw: UpstreamCall): Omit<Call, "streamCursor"> {
  const item = toCallListItem(raw);
  const segments = toSegments(raw);
  return {
    ...item,
    segments,
    summary: raw.summary ? toCallSummary(raw.summary, { callId: item.callId, symbol: item.symbol }) : null,
    participants: (raw.participants ?? []).map(toParticipant).filter((p): p is Participant => p !== null),
    ...toMediaFlags(raw, item.status, segments.length > 0),
  };
}

export interface UpstreamPage {
  hits: number;
  pageCount: number;
}

export function toPage(body: UpstreamCallList | UpstreamSummaryList, rows: number): UpstreamPage {
  if (Array.isArray(body)) return { hits: rows, pageCount: 1 };
  return { hits: toInt(body.pagination?.hits) ?? rows, pageCount: toInt(body.pagination?.page_count) ?? 1 };
}

/** Parse + map a captured call body exactly as a live answer would be (tests, fixtures). */
export function callFromBody(body: unknown): Omit<Call, "streamCursor"> {
  return toCall(upstreamCallSchema.parse(body));
}

export function mediaLinksFromBody(body: unknown, baseUrl?: string): MediaLinks {
  return toMediaLinks(upstreamCallSchema.parse(body), baseUrl);
}

export function summaryFromBody(body: unknown): CallSummary | null {
  const s = upstreamSummaryResponseSchema.parse(body);
  return s ? toCallSummary(s) : null;
}

export function callListFromBody(body: unknown): { items: CallListItem[]; hits: number } {
  const parsed = upstreamCallListSchema.parse(body);
  const rows = Array.isArray(parsed) ? parsed : (parsed.data ?? []);
  return { items: rows.map(toCallListItem), hits: toPage(parsed, rows.length).hits };
}

/** Parse + map a captured call body as the live bus's gap fill reads it (tests). */
export function liveTranscriptFromBody(body: unknown): LiveTranscript {
  return toLiveTranscript(upstreamCallSchema.parse(body));
}
