/**
 * Our API's shapes for conference calls and summaries (`/api/calls*`, `/api/summaries`).
 *
 * camelCase, `null` for what does not exist yet, never an upstream URL or signed link: media is reached only through
 * our own paths (`/api/calls/{callId}/audio/playlist.m3u8`, `/audio.mp3`, `/transcript.pdf`), announced by the
 * `hasAudio` / `hasMp3` / `hasPdf` flags.
 */
import { z } from "zod";
import { callIdSchema, liveCallStatusSchema, tickerSchema } from "./live";

export { callIdSchema };

export const callStatusSchema = liveCallStatusSchema;
export type CallStatus = z.infer<typeof callStatusSchema>;

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
  /** −1..1 once enriched. */
  sentiment: z.number().nullable(),
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
  title: z.string(),
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

export const paginationSchema = z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  pageCount: z.number().int(),
});
export type Pagination = z.infer<typeof paginationSchema>;

export const callListSchema = z.object({ items: z.array(callListItemSchema), pagination: paginationSchema });
export type CallList = z.infer<typeof callListSchema>;

export const summaryListSchema = z.object({
  items: z.array(callSummarySchema),
  pagination: paginationSchema,
});
export type SummaryList = z.infer<typeof summaryListSchema>;

const dateOrDateTime = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: "must be YYYY-MM-DD or an ISO 8601 date-time",
});

const tickersList = z
  .string()
  .transform((s) =>
    s
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .pipe(z.array(tickerSchema).min(1, "tickers must not be empty").max(50, "at most 50 tickers"));

const pageParams = {
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
};

/** `GET /api/calls` query. Live calls are listed first. */
export const callsQuerySchema = z
  .object({
    tickers: tickersList.optional(),
    from: dateOrDateTime.optional(),
    to: dateOrDateTime.optional(),
    status: z.enum(["live", "completed", "all"]).default("all"),
    ...pageParams,
  })
  .refine((q) => !q.from || !q.to || q.from.slice(0, 10) <= q.to.slice(0, 10), {
    message: "from must not be after to",
    path: ["from"],
  });
export type CallsQuery = z.infer<typeof callsQuerySchema>;

/** `GET /api/summaries` query. */
export const summariesQuerySchema = z
  .object({
    tickers: tickersList.optional(),
    from: dateOrDateTime.optional(),
    to: dateOrDateTime.optional(),
    ...pageParams,
  })
  .refine((q) => !q.from || !q.to || q.from.slice(0, 10) <= q.to.slice(0, 10), {
    message: "from must not be after to",
    path: ["from"],
  });
export type SummariesQuery = z.infer<typeof summariesQuerySchema>;
