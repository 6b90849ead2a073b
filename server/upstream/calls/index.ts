import "server-only";
import { z } from "zod";
import { normalizeCallId } from "@/lib/schemas/calls";
import type {
  Call,
  CallListItem,
  CallsQuery,
  CallStatus,
  CallSummary,
  Participant,
  Segment,
  SummariesQuery,
} from "@/lib/schemas/calls";
import { liveSentiment } from "@/common/sentiment";
import { AppError } from "../../errors";
import { cacheKey, type CachePolicy, type Cached } from "../cache";
import type { Upstream, UpstreamQuery } from "../client";
import { toBool, toInt, toNumber, toText, wireScalar } from "../values";

/**
 * Conference calls and summaries (docs/upstream.md §5). The wire schemas are loose and tolerate the documented
 * variants of the real service: status in lower case or unknown, a single `recording` object instead of
 * `recordings[]` whose `file_link`s may be relative to the service's base URL, a summary wrapped as
 * `{data: [summary]}`, numbers as strings, missing optional blocks, a `call_title` that is an AI-written headline
 * with the formal title in `description` and no `period`/`year` (docs/upstream.md §8), ids that are not hex.
 * Everything upstream-specific ends in the `to*` mappers; signed media links never leave this module except through
 * `toMediaLinks` (used by the media proxy, server-side only).
 */

export const CALLS_PATH = "/api/v1/transcripts/calls";
export const SUMMARIES_PATH = "/api/v1/transcripts/summaries";

const CALL_POLICIES = {
  /** Live calls change every few seconds, but the hub merges in what the socket said since. */
  detail: { freshMs: 5_000, swrMs: 10_000, staleIfErrorMs: 10 * 60_000 },
  list: { freshMs: 10_000, swrMs: 60_000, staleIfErrorMs: 30 * 60_000 },
  summary: { freshMs: 60_000, swrMs: 10 * 60_000, staleIfErrorMs: 60 * 60_000 },
} as const satisfies Record<string, CachePolicy>;

/* ------------------------------------------------------------------ wire schemas (private) */

const upstreamSegmentSchema = z.looseObject({
  segment_id: wireScalar,
  speaker: wireScalar,
  start_time: wireScalar,
  end_time: wireScalar,
  start_ms: wireScalar,
  end_ms: wireScalar,
  confidence: wireScalar,
  text: wireScalar,
  sentiment: wireScalar,
});
type UpstreamSegment = z.infer<typeof upstreamSegmentSchema>;

const upstreamTranscriptSchema = z.looseObject({
  transcript_id: wireScalar,
  type: wireScalar,
  language: wireScalar,
  confidence_score: wireScalar,
  text: wireScalar,
  segments: z.array(upstreamSegmentSchema).nullish(),
});

const upstreamFormatSchema = z.looseObject({
  file_link: wireScalar,
  content_type: wireScalar,
  quality: wireScalar,
});

const upstreamRecordingSchema = z.looseObject({
  recording_id: wireScalar,
  language: wireScalar,
  duration: wireScalar,
  formats: z.array(upstreamFormatSchema).nullish(),
});

const upstreamSummarySchema = z.looseObject({
  summary_id: wireScalar,
  call_id: wireScalar,
  transcript_id: wireScalar,
  symbol: wireScalar,
  summary: wireScalar,
  sentiment: wireScalar,
  language: wireScalar,
  created_at: wireScalar,
  updated_at: wireScalar,
});
type UpstreamSummary = z.infer<typeof upstreamSummarySchema>;

const upstreamParticipantSchema = z.looseObject({
  participant_id: wireScalar,
  name: wireScalar,
  role: wireScalar,
  organization: wireScalar,
  mentions: wireScalar,
  human_verified: wireScalar,
});

const upstreamCallSchema = z.looseObject({
  call_id: z.string(),
  call_title: wireScalar,
  description: wireScalar,
  headline: wireScalar,
  symbol: z.string(),
  name: wireScalar,
  exchange: wireScalar,
  period: wireScalar,
  year: wireScalar,
  start_time: wireScalar,
  end_time: wireScalar,
  duration: wireScalar,
  status: wireScalar,
  transcripts: z.array(upstreamTranscriptSchema).nullish(),
  recordings: z.union([z.array(upstreamRecordingSchema), upstreamRecordingSchema]).nullish(),
  recording: upstreamRecordingSchema.nullish(),
  summary: upstreamSummarySchema.nullish(),
  participants: z.array(upstreamParticipantSchema).nullish(),
  pdf: z.looseObject({ file_link: wireScalar, content_type: wireScalar }).nullish(),
});
export type UpstreamCall = z.infer<typeof upstreamCallSchema>;

const upstreamPaginationSchema = z
  .looseObject({ hits: wireScalar, page: wireScalar, page_count: wireScalar, page_size: wireScalar })
  .nullish();

const upstreamCallListSchema = z.union([
  z.array(upstreamCallSchema),
  z.looseObject({ data: z.array(upstreamCallSchema).nullish(), pagination: upstreamPaginationSchema }),
]);
type UpstreamCallList = z.infer<typeof upstreamCallListSchema>;

const upstreamSummaryListSchema = z.union([
  z.array(upstreamSummarySchema),
  z.looseObject({ data: z.array(upstreamSummarySchema).nullish(), pagination: upstreamPaginationSchema }),
]);
type UpstreamSummaryList = z.infer<typeof upstreamSummaryListSchema>;

/** One summary: bare, or (tolerated) `{data: [summary]}`. The wrapped form is tried first: it is the stricter. */
const upstreamSummaryResponseSchema = z.union([
  z.looseObject({ data: z.array(upstreamSummarySchema) }).transform((b) => b.data[0] ?? null),
  upstreamSummarySchema,
]);

/* ------------------------------------------------------------------ mappers */

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
 * the relay puts on the stream, so the page and the stream agree sentence for sentence.
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

interface UpstreamPage {
  hits: number;
  pageCount: number;
}

function toPage(body: UpstreamCallList | UpstreamSummaryList, rows: number): UpstreamPage {
  if (Array.isArray(body)) return { hits: rows, pageCount: 1 };
  return { hits: toInt(body.pagination?.hits) ?? rows, pageCount: toInt(body.pagination?.page_count) ?? 1 };
}

/* ------------------------------------------------------------------ reads */

function callPath(callId: string): string {
  // The id was validated ([A-Za-z0-9_-]{1,64}) by the caller; encoding is belt and braces against path tricks.
  return `${CALLS_PATH}/${encodeURIComponent(callId)}`;
}

/** One call, uncached, in its wire shape: private to this module (readers below hand out app shapes). */
async function fetchUpstreamCall(
  upstream: Upstream,
  callId: string,
  options: { audio?: boolean; pdf?: boolean; signal?: AbortSignal } = {},
): Promise<UpstreamCall | null> {
  const query: UpstreamQuery = {
    audio: options.audio ? "true" : undefined,
    pdf: options.pdf ? "true" : undefined,
  };
  const result = await upstream.http.get(callPath(callId), query, upstreamCallSchema, {
    signal: options.signal,
  });
  return result.status === "no_data" ? null : result.data;
}

/** The call as the upstream has it now (never a cached copy): the relay's gap filling reads it. */
export async function fetchLiveCall(
  upstream: Upstream,
  callId: string,
  signal?: AbortSignal,
): Promise<Omit<Call, "streamCursor"> | null> {
  const raw = await fetchUpstreamCall(upstream, callId, { signal });
  return raw ? toCall(raw) : null;
}

/**
 * The call's current signed media links, uncached (the media proxy re-signs through it). `baseUrl` (the service's
 * REST base) resolves the links the documented service gives relative to it.
 */
export async function fetchMediaLinks(
  upstream: Upstream,
  callId: string,
  signal?: AbortSignal,
  baseUrl?: string,
): Promise<MediaLinks | null> {
  const raw = await fetchUpstreamCall(upstream, callId, { audio: true, pdf: true, signal });
  return raw ? toMediaLinks(raw, baseUrl) : null;
}

/** One call in our shape, cached briefly (every browser on a call page shares one upstream read). */
export async function getUpstreamCall(
  upstream: Upstream,
  callId: string,
  options: { signal?: AbortSignal } = {},
): Promise<Cached<Omit<Call, "streamCursor"> | null>> {
  return upstream.cache.get(
    cacheKey(callPath(callId), {}),
    CALL_POLICIES.detail,
    async () => {
      const raw = await fetchUpstreamCall(upstream, callId);
      return raw ? toCall(raw) : null;
    },
    options,
  );
}

export function toUpstreamListQuery(
  query: { tickers?: string[]; from?: string; to?: string },
  status: "IN_PROGRESS" | "COMPLETED",
  page: number,
  pageSize: number,
): UpstreamQuery {
  return {
    page: page + 1,
    page_size: pageSize,
    status,
    symbol: query.tickers?.join(","),
    from: query.from,
    to: query.to,
    sort_by: "start_time",
    info_only: "true",
  };
}

async function fetchCallPage(
  upstream: Upstream,
  query: CallsQuery,
  status: "IN_PROGRESS" | "COMPLETED",
  page: number,
  pageSize: number,
  signal: AbortSignal | undefined,
): Promise<Cached<{ items: CallListItem[]; hits: number }>> {
  const upstreamQuery = toUpstreamListQuery(query, status, page, pageSize);
  return upstream.cache.get(
    cacheKey(CALLS_PATH, upstreamQuery),
    CALL_POLICIES.list,
    async () => {
      const result = await upstream.http.get(CALLS_PATH, upstreamQuery, upstreamCallListSchema);
      if (result.status === "no_data") return { items: [], hits: 0 };
      const rows = Array.isArray(result.data) ? result.data : (result.data.data ?? []);
      return { items: rows.map(toCallListItem), hits: toPage(result.data, rows.length).hits };
    },
    { signal },
  );
}

/**
 * One page (1-based, 100 calls, newest first) of the calls of any status that started at or after `fromIso`,
 * uncached: the relay's catch-up after a reconnect reads them page by page.
 */
export async function listCallsStartedSince(
  upstream: Upstream,
  fromIso: string,
  options: { signal?: AbortSignal; page?: number } = {},
): Promise<CallListItem[]> {
  const query: UpstreamQuery = {
    page: options.page ?? 1,
    page_size: 100,
    status: "ALL",
    from: fromIso,
    sort_by: "start_time",
    info_only: "true",
  };
  const result = await upstream.http.get(CALLS_PATH, query, upstreamCallListSchema, {
    signal: options.signal,
  });
  if (result.status === "no_data") return [];
  const rows = Array.isArray(result.data) ? result.data : (result.data.data ?? []);
  return rows.map(toCallListItem);
}

export interface CallListPage {
  items: CallListItem[];
  total: number;
  fetchedAt: string;
  stale: boolean;
}

/** How many live calls `status=all` fetches in one go to put them first; more than ever run at once. */
const LIVE_LIST_CAP = 100;

/**
 * `status=all` lists live calls first, then completed ones, newest first within each. The upstream pages each
 * status separately, so page `p` of the combined list is cut from the live list (one read of up to 100) and from
 * the one or two completed pages that cover the remaining offset.
 */
export async function listCalls(
  upstream: Upstream,
  query: CallsQuery,
  options: { signal?: AbortSignal } = {},
): Promise<CallListPage> {
  const { page, pageSize } = query;
  const signal = options.signal;
  if (query.status !== "all") {
    const r = await fetchCallPage(
      upstream,
      query,
      query.status === "live" ? "IN_PROGRESS" : "COMPLETED",
      page,
      pageSize,
      signal,
    );
    return { items: r.value.items, total: r.value.hits, fetchedAt: r.fetchedAt, stale: r.stale };
  }
  const live = await fetchCallPage(upstream, query, "IN_PROGRESS", 0, LIVE_LIST_CAP, signal);
  const liveItems = live.value.items.filter((c) => c.status === "live");
  const offset = page * pageSize;
  const items = liveItems.slice(offset, offset + pageSize);
  const skipCompleted = Math.max(0, offset - liveItems.length);
  const firstPage = Math.floor(skipCompleted / pageSize);
  const first = await fetchCallPage(upstream, query, "COMPLETED", firstPage, pageSize, signal);
  let completed = first.value.items.slice(skipCompleted % pageSize);
  let stale = live.stale || first.stale;
  let fetchedAt = first.fetchedAt < live.fetchedAt ? first.fetchedAt : live.fetchedAt;
  const need = pageSize - items.length;
  if (completed.length < need && (firstPage + 1) * pageSize < first.value.hits) {
    const second = await fetchCallPage(upstream, query, "COMPLETED", firstPage + 1, pageSize, signal);
    completed = [...completed, ...second.value.items];
    stale ||= second.stale;
    if (second.fetchedAt < fetchedAt) fetchedAt = second.fetchedAt;
  }
  const liveIds = new Set(liveItems.map((c) => c.callId));
  items.push(...completed.filter((c) => !liveIds.has(c.callId)).slice(0, need));
  return { items, total: liveItems.length + first.value.hits, fetchedAt, stale };
}

/** A call's summary; 404 until the call is enriched. */
export async function getCallSummary(
  upstream: Upstream,
  callId: string,
  options: { signal?: AbortSignal } = {},
) {
  const path = `${SUMMARIES_PATH}/${encodeURIComponent(callId)}`;
  const cached = await upstream.cache.get(
    cacheKey(path, {}),
    CALL_POLICIES.summary,
    async () => {
      const result = await upstream.http.get(path, {}, upstreamSummaryResponseSchema);
      return result.status === "no_data" || result.data === null
        ? null
        : toCallSummary(result.data, { callId });
    },
    options,
  );
  if (cached.value === null) {
    throw new AppError("not_found", "This call has no summary yet (it appears once the call is enriched).");
  }
  return cached as Cached<CallSummary>;
}

export async function listSummaries(
  upstream: Upstream,
  query: SummariesQuery,
  options: { signal?: AbortSignal } = {},
) {
  const upstreamQuery: UpstreamQuery = {
    page: query.page + 1,
    page_size: query.pageSize,
    symbol: query.tickers?.join(","),
    from: query.from,
    to: query.to,
    sort_by: "created_at",
  };
  const cached = await upstream.cache.get(
    cacheKey(SUMMARIES_PATH, upstreamQuery),
    CALL_POLICIES.list,
    async () => {
      const result = await upstream.http.get(SUMMARIES_PATH, upstreamQuery, upstreamSummaryListSchema);
      if (result.status === "no_data") return { items: [] as CallSummary[], hits: 0 };
      const rows = Array.isArray(result.data) ? result.data : (result.data.data ?? []);
      return { items: rows.map((r) => toCallSummary(r)), hits: toPage(result.data, rows.length).hits };
    },
    options,
  );
  return {
    items: cached.value.items,
    total: cached.value.hits,
    fetchedAt: cached.fetchedAt,
    stale: cached.stale,
  };
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
