import "server-only";
import { z } from "zod";
import { wireScalar } from "../values";

/**
 * The service's shapes of conference calls and summaries (docs/upstream.md §5, §8): loose schemas that tolerate the
 * documented variants. Private to server/upstream/ (a lint rule keeps every other folder out); `transform.ts` turns
 * them into our shapes.
 */

export const CALLS_PATH = "/api/v1/transcripts/calls";
export const SUMMARIES_PATH = "/api/v1/transcripts/summaries";

export const upstreamSegmentSchema = z.looseObject({
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
export type UpstreamSegment = z.infer<typeof upstreamSegmentSchema>;

export const upstreamTranscriptSchema = z.looseObject({
  transcript_id: wireScalar,
  type: wireScalar,
  language: wireScalar,
  confidence_score: wireScalar,
  text: wireScalar,
  segments: z.array(upstreamSegmentSchema).nullish(),
});

export const upstreamFormatSchema = z.looseObject({
  file_link: wireScalar,
  content_type: wireScalar,
  quality: wireScalar,
});

export const upstreamRecordingSchema = z.looseObject({
  recording_id: wireScalar,
  language: wireScalar,
  duration: wireScalar,
  formats: z.array(upstreamFormatSchema).nullish(),
});

export const upstreamSummarySchema = z.looseObject({
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
export type UpstreamSummary = z.infer<typeof upstreamSummarySchema>;

export const upstreamParticipantSchema = z.looseObject({
  participant_id: wireScalar,
  name: wireScalar,
  role: wireScalar,
  organization: wireScalar,
  mentions: wireScalar,
  human_verified: wireScalar,
});

export const upstreamCallSchema = z.looseObject({
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

export const upstreamPaginationSchema = z
  .looseObject({ hits: wireScalar, page: wireScalar, page_count: wireScalar, page_size: wireScalar })
  .nullish();

export const upstreamCallListSchema = z.union([
  z.array(upstreamCallSchema),
  z.looseObject({ data: z.array(upstreamCallSchema).nullish(), pagination: upstreamPaginationSchema }),
]);
export type UpstreamCallList = z.infer<typeof upstreamCallListSchema>;

export const upstreamSummaryListSchema = z.union([
  z.array(upstreamSummarySchema),
  z.looseObject({ data: z.array(upstreamSummarySchema).nullish(), pagination: upstreamPaginationSchema }),
]);
export type UpstreamSummaryList = z.infer<typeof upstreamSummaryListSchema>;

/** One summary: bare, or (tolerated) `{data: [summary]}`. The wrapped form is tried first: it is the stricter. */
export const upstreamSummaryResponseSchema = z.union([
  z.looseObject({ data: z.array(upstreamSummarySchema) }).transform((b) => b.data[0] ?? null),
  upstreamSummarySchema,
]);

/* ------------------------------------------------------------------ mappers */
