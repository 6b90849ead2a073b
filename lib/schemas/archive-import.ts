/**
 * `POST /api/archive/import`: the calls `npm run import` read from transcript files, sent to the running app that
 * owns the database (docs/storage.md, "Imported calls"). The body is `{ calls: [{ call, origin }] }`, at most
 * `IMPORT_BATCH_MAX_BYTES`; the answer `{ data: [{ callId, symbol, sentences, stored }] }`, one per call, in order.
 */
import { z } from "zod";
import { callSchema } from "./calls";

/** The largest body the route reads; the import sends batches well under it. */
export const IMPORT_BATCH_MAX_BYTES = 8_000_000;
/** Calls in one batch at most. */
export const IMPORT_BATCH_MAX_CALLS = 200;

export const importedCallSchema = z
  .object({
    call: callSchema.omit({ streamCursor: true }).extend({
      callId: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/, { message: "callId must be 1-64 of A-Z a-z 0-9 _ -" }),
      status: z.enum(["completed", "enriched"]),
      segments: callSchema.shape.segments.min(1, { message: "a call needs at least one sentence" }),
    }),
    origin: z.object({
      contentHash: z.string().regex(/^[0-9a-f]{64}$/, { message: "contentHash must be a sha-256 in hex" }),
      sections: z.array(z.enum(["prepared", "qa"])).nullable(),
    }),
  })
  .superRefine((v, ctx) => {
    const segments = v.call.segments;
    if (v.origin.sections && v.origin.sections.length !== segments.length) {
      ctx.addIssue({ code: "custom", path: ["origin", "sections"], message: "one section per segment" });
    }
    for (let i = 1; i < segments.length; i += 1) {
      if (segments[i]!.sequence <= segments[i - 1]!.sequence) {
        ctx.addIssue({ code: "custom", path: ["call", "segments", i], message: "sequences must increase" });
        return;
      }
    }
  });
export type ImportedCallBody = z.infer<typeof importedCallSchema>;

export const importBatchSchema = z.object({
  calls: z.array(importedCallSchema).min(1).max(IMPORT_BATCH_MAX_CALLS),
});

export const importResultSchema = z.object({
  callId: z.string(),
  symbol: z.string(),
  sentences: z.number().int().nonnegative(),
  stored: z.boolean(),
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const importResponseSchema = z.object({ data: z.array(importResultSchema) });
