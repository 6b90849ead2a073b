// GET /api/companies/[symbol]/peers – the company's suggested peers (same industry): { data: Peers, meta }
import { z } from "zod";
import { envelopeResponse } from "@/server/http/respond";
import { findPeers } from "@/server/peers/peers";
import { route } from "@/server/runtime/route";
import { CACHE_POLICIES } from "@/server/upstream/cache";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const paramsSchema = z.object({
  symbol: z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .refine((s) => /^[A-Z0-9][A-Z0-9.-]{0,14}$/.test(s), { message: "symbol must be a ticker symbol" }),
});

export const GET = route({ params: paramsSchema }, async ({ runtime, params, signal }) => {
  const result = await findPeers(runtime.upstream, params.symbol, { signal });
  return envelopeResponse(result, CACHE_POLICIES.fundamentals.freshMs);
});
