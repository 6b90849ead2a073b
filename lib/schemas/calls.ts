/**
 * Our API's shapes for conference calls and summaries (`/api/calls*`, `/api/summaries`).
 *
 * camelCase, `null` for what does not exist yet, never an upstream URL or signed link: media is reached only through
 * our own paths (`/api/calls/{callId}/audio/playlist.m3u8`, `/audio.mp3`, `/transcript.pdf`), announced by the
 * `hasAudio` / `hasMp3` / `hasPdf` flags.
 */
import { z } from "zod";
import { envelopeSchema, pageMetaSchema } from "./envelope";
import { callIdSchema, liveCallStatusSchema, normalizeCallId } from "./live";
import { enumParam, intParam, isValidIsoDate, symbolListParam } from "./params";

export { callIdSchema, normalizeCallId };

/** Route params of `/api/calls/[callId]/…`: 1–64 of `[A-Za-z0-9_-]`, hex ids normalised to lower case. */
export const callIdParamsSchema = z.object({ callId: callIdSchema.transform(normalizeCallId) });

export const callStatusSchema = liveCallStatusSchema;
export type CallStatus = z.infer<typeof callStatusSchema>;

export const sentimentSourceSchema = z.enum(["live", "enriched"]);
export type SentimentSource = z.infer<typeof sentimentSourceSchema>;

export const segmentSchema = z.object({
  /** Equals the live stream's `sequence`. */
  sequence: z.number().int().nonnegative(),
  /** Diarization label (`OPERATOR`, `SPEAKER_1`, …). */
  speaker: z.string(),
  /** The speaker's name once the call is enriched. */
  speakerName: z.string().nullable(),
  startMs: z.number(),
  endMs: z.number(),
  text: z.string(),
  confidence: z.number().nullable(),
  /**
   * −1..1: the upstream's enriched score when it has one, else the live bus's live estimate (common/sentiment, scored as
   * the sentence is published). `null` only from an older server.
   */
  sentiment: z.number().nullable(),
  /** Where `sentiment` comes from: `live` estimate until the upstream's enrichment scores the segment. */
  sentimentSource: sentimentSourceSchema.nullable().default(null),
});
export type Segment = z.infer<typeof segmentSchema>;

export const participantSchema = z.object({
  name: z.string(),
  role: z.string().nullable(),
  organization: z.string().nullable(),
  mentions: z.number().nullable(),
  isHumanVerified: z.boolean(),
});
export type Participant = z.infer<typeof participantSchema>;

export const callSummarySchema = z.object({
  callId: z.string(),
  symbol: z.string(),
  /** One point per upstream line. */
  points: z.array(z.string()),
  sentiment: z.number().nullable(),
  language: z.string().nullable(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type CallSummary = z.infer<typeof callSummarySchema>;

export const callListItemSchema = z.object({
  callId: z.string(),
  /** The call's formal title ("Q4 2025 Northwind Semiconductor (NWSC) Earnings Conference Call"). */
  title: z.string(),
  /**
   * The service's AI-written headline of the call ("Northwind guides above consensus on data-centre demand"),
   * shown as a subtitle; absent or null when the service gives none beyond the title.
   */
  headline: z.string().nullable().optional(),
  symbol: z.string(),
  name: z.string(),
  exchange: z.string().nullable(),
  period: z.string().nullable(),
  year: z.number().nullable(),
  /** ISO 8601 UTC. */
  startTime: z.string(),
  /** null while live. */
  endTime: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  status: callStatusSchema,
});
export type CallListItem = z.infer<typeof callListItemSchema>;

export const callSchema = callListItemSchema.extend({
  segments: z.array(segmentSchema),
  summary: callSummarySchema.nullable(),
  participants: z.array(participantSchema),
  hasAudio: z.boolean(),
  hasMp3: z.boolean(),
  hasPdf: z.boolean(),
  /**
   * The live stream's position when this snapshot was taken (live calls only): open `/api/stream?calls=…&cursor=…`
   * with it to receive exactly what follows the snapshot.
   */
  streamCursor: z.string().nullable(),
});
export type Call = z.infer<typeof callSchema>;

/** Meta of our paged call and summary lists: the shared page meta plus the upstream's hit count. */
export const callsPageMetaSchema = pageMetaSchema.extend({ total: z.number().int().nonnegative() });
export type CallsPageMeta = z.infer<typeof callsPageMetaSchema>;

/** `GET /api/calls` → `{ data: CallListItem[], meta }`. */
export const callListResponseSchema = z.object({
  data: z.array(callListItemSchema),
  meta: callsPageMetaSchema,
});
export type CallListResponse = z.infer<typeof callListResponseSchema>;

/** `GET /api/summaries` → `{ data: CallSummary[], meta }`. */
export const summaryListResponseSchema = z.object({
  data: z.array(callSummarySchema),
  meta: callsPageMetaSchema,
});
export type SummaryListResponse = z.infer<typeof summaryListResponseSchema>;

/** `GET /api/calls/[callId]` → `{ data: Call, meta }`. */
export const callResponseSchema = envelopeSchema(callSchema);
/** `GET /api/calls/[callId]/summary` → `{ data: CallSummary, meta }`. */
export const callSummaryResponseSchema = envelopeSchema(callSummarySchema);

/** `from`/`to` on the call's start: a date (YYYY-MM-DD) or an ISO 8601 date-time. */
const dateOrDateTimeParam = (name: string) =>
  z
    .string()
    .refine((v) => isValidIsoDate(v) || (/^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))), {
      message: `${name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time`,
    });

const listShape = {
  tickers: symbolListParam("tickers", 50).optional(),
  from: dateOrDateTimeParam("from").optional(),
  to: dateOrDateTimeParam("to").optional(),
  /** 0-based, like every paged list of our API (the upstream's call lists are 1-based: the client translates). */
  page: intParam("page", 0, 10_000).default(0),
  pageSize: intParam("pageSize", 1, 100).default(20),
};

function refineRange(value: { from?: string; to?: string }, ctx: z.RefinementCtx) {
  if (value.from !== undefined && value.to !== undefined && Date.parse(value.from) > Date.parse(value.to)) {
    ctx.addIssue({ code: "custom", path: ["from"], message: "from must be on or before to" });
  }
}

/**
 * `GET /api/calls` query. `status`: live, completed (which includes enriched) or all (default); live calls first.
 * `source`: `market` (default: the market-data service's calls) or `imported` (transcripts brought in with
 * `npm run import`, from the archive, newest first).
 */
export const callsQuerySchema = z
  .object({
    ...listShape,
    status: enumParam("status", ["live", "completed", "all"] as const).default("all"),
    source: enumParam("source", ["market", "imported"] as const).optional(),
  })
  .superRefine(refineRange);
export type CallsQuery = z.infer<typeof callsQuerySchema>;

/** `GET /api/summaries` query (newest first). */
export const summariesQuerySchema = z.object(listShape).superRefine(refineRange);
export type SummariesQuery = z.infer<typeof summariesQuerySchema>;
