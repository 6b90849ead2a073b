/**
 * Live events of `GET /api/stream` (Server-Sent Events): the contract between the live bus and the browser.
 *
 * Every SSE message is `id: <cursor>` + `event: <name>` + `data: <JSON>`; the cursor is opaque to the browser
 * and only ever sent back (`Last-Event-ID` or `?cursor=`) to resume.
 *
 * Beyond docs/interfaces.md §2: `sentence` also carries `sentiment` (the live bus's live estimate, see `sentenceEventSchema`).
 */
import { z } from "zod";

/**
 * A call id as the service issues it: the contract's are 24 hex digits, the real service's are not always, so any
 * 1–64 of `[A-Za-z0-9_-]` (docs/upstream.md §5) — enough to keep paths and cache keys safe.
 */
export const callIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "callId must be 1 to 64 letters, digits, '_' or '-'");

/**
 * Hex ids (the contract's) are case-insensitive and kept in lower case; any other id is the service's own string,
 * whose case may matter, and is kept as given.
 */
export function normalizeCallId(id: string): string {
  return /^[0-9a-fA-F]{24}$/.test(id) ? id.toLowerCase() : id;
}

/** Tickers as the upstream spells them (letters, digits, `.` and `-`), upper-cased. */
export const tickerSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,14}$/, "tickers must be letters, digits, '.' or '-'")
  .transform((s) => s.toUpperCase());

export const liveCallStatusSchema = z.enum(["live", "completed", "enriched"]);
export type LiveCallStatus = z.infer<typeof liveCallStatusSchema>;

export const callStartedEventSchema = z.object({
  callId: z.string(),
  symbol: z.string(),
  name: z.string(),
  /** ISO 8601 UTC. */
  startTime: z.string(),
});
export type CallStartedEvent = z.infer<typeof callStartedEventSchema>;

export const sentenceEventSchema = z.object({
  callId: z.string(),
  /** The upstream's sequence (0, 1, 2, …): a client can check order and dedupe by it. */
  sequence: z.number().int().nonnegative(),
  text: z.string(),
  /** Live diarization label (`OPERATOR`, `SPEAKER_1`, …). */
  speaker: z.string(),
  /** Offsets from the call's start, for seeking the audio. */
  startMs: z.number(),
  endMs: z.number(),
  confidence: z.number().nullable(),
  /**
   * Extension of docs/interfaces.md §2's `sentence` event (additive): the live bus's live estimate of the sentence's
   * sentiment in [−1, 1] (common/sentiment, the same financial-language model the upstream's enrichment uses),
   * scored as the sentence is published; 0 = no evidence. The upstream only scores after the call, so this is what
   * makes sentiment move while a call is live. `null` (or absent, from a server that predates it) = not scored.
   */
  sentiment: z.number().min(-1).max(1).nullable().optional(),
});
export type SentenceEvent = z.infer<typeof sentenceEventSchema>;

export const callStatusEventSchema = z.object({
  callId: z.string(),
  status: liveCallStatusSchema,
});
export type CallStatusEvent = z.infer<typeof callStatusEventSchema>;

export const resetEventSchema = z.object({
  /** Why the stream could not resume: the client must refetch what it shows. */
  reason: z.enum(["cursor_too_old", "unknown_cursor"]),
});
export type ResetEvent = z.infer<typeof resetEventSchema>;

export const liveEventNames = ["call.started", "sentence", "call.status", "reset"] as const;
export type LiveEventName = (typeof liveEventNames)[number];

/** One parsed SSE message, as the browser sees it. */
export const liveMessageSchema = z.discriminatedUnion("event", [
  z.object({ event: z.literal("call.started"), id: z.string(), data: callStartedEventSchema }),
  z.object({ event: z.literal("sentence"), id: z.string(), data: sentenceEventSchema }),
  z.object({ event: z.literal("call.status"), id: z.string(), data: callStatusEventSchema }),
  z.object({ event: z.literal("reset"), id: z.string(), data: resetEventSchema }),
]);
export type LiveMessage = z.infer<typeof liveMessageSchema>;

/** Parses one SSE message's `event` name and `data` text; `null` when it is not one of ours. */
export function parseLiveMessage(event: string, id: string, data: string): LiveMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = liveMessageSchema.safeParse({ event, id, data: json });
  return parsed.success ? parsed.data : null;
}

const MAX_LIST = 50;

function commaList<T extends z.ZodType<string, string>>(item: T, what: string) {
  return z
    .string()
    .transform((s) =>
      s
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).min(1, `${what} must not be empty`).max(MAX_LIST, `at most ${MAX_LIST} ${what}`));
}

/**
 * Query of `GET /api/stream`: `tickers=*` (every call), `tickers=A,B` and/or `calls=id1,id2`; at least one.
 * `cursor` is the query-string alternative to the `Last-Event-ID` header.
 */
export const streamQuerySchema = z
  .object({
    tickers: z.union([z.literal("*"), commaList(tickerSchema, "tickers")]).optional(),
    calls: commaList(callIdSchema.transform(normalizeCallId), "calls").optional(),
    cursor: z.string().max(64).optional(),
  })
  .refine((q) => q.tickers !== undefined || q.calls !== undefined, {
    message: "give tickers (* or a comma-separated list) and/or calls",
    path: ["tickers"],
  });
export type StreamQuery = z.infer<typeof streamQuerySchema>;
