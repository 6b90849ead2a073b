// GET /api/calls/[callId]/audio/segments/[segment] – one HLS segment (`{n}.mp3`, `{n}.ts`, …), cached as immutable
import { z } from "zod";
import { callIdSchema, normalizeCallId } from "@/lib/schemas/calls";
import { route } from "@/server/runtime/route";
import { assertNoQuery } from "@/server/upstream/media";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const paramsSchema = z.object({
  callId: callIdSchema.transform(normalizeCallId),
  // Only an integer index and a known extension: the upstream URL is looked up, never built from this.
  segment: z
    .string()
    .regex(/^\d{1,7}\.(mp3|ts|aac|m4s|mp4)$/, "segment must be <number>.<mp3|ts|aac|m4s|mp4>")
    .transform((s) => Number(s.slice(0, s.indexOf(".")))),
});

export const GET = route({ params: paramsSchema }, async ({ runtime, request, params, signal }) => {
  assertNoQuery(request);
  const { body, contentType } = await runtime.media.segment(params.callId, params.segment, signal);
  return new Response(body as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": contentType,
      "Content-Length": String(body.byteLength),
      "Cache-Control": "private, max-age=31536000, immutable",
    },
  });
});
