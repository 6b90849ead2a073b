import "server-only";
import { z } from "zod";

/** The service's live-stream frames (docs/upstream.md §6). Private to server/upstream/; `frames.ts` parses them. */

export const upstreamConnectedSchema = z.object({ message: z.string(), uid: z.string() });

export const upstreamAudioSchema = z.object({
  action: z.literal("audio"),
  symbol: z.string(),
  call_id: z.string(),
  hls_url: z.string().optional(),
});

export const upstreamListSchema = z.object({
  action: z.literal("list"),
  calls: z.array(
    z.object({
      call_id: z.string(),
      symbol: z.string(),
      name: z.string().nullish(),
      start_time: z.string().nullish(),
    }),
  ),
});

export const upstreamSubscribedSchema = z.object({
  action: z.literal("subscribed"),
  tickers: z.array(z.string()),
});

export const upstreamErrorSchema = z.object({ action: z.literal("error"), message: z.string() });

const looseNumber = z
  .union([z.number(), z.string().trim().min(1).transform(Number)])
  .pipe(z.number().finite());

export const upstreamSentenceSchema = z.object({
  call_id: z.string(),
  symbol: z.string(),
  name: z.string().nullish(),
  call_title: z.string().nullish(),
  sequence: looseNumber.pipe(z.number().int().nonnegative()),
  sentence: z.string(),
  speaker: z.string().nullish(),
  start_time: z.string().nullish(),
  end_time: z.string().nullish(),
  confidence: looseNumber.nullish(),
  // Tolerate case: the real service is not consistent about it (docs/upstream.md §5 says so for REST).
  status: z.string().transform((s) => s.toUpperCase()),
});
