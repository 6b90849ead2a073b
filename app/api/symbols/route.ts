// GET /api/symbols?q= – company search by ticker prefix and name words: { data: SymbolMatch[] (≤ 20), meta }
import { symbolsQuerySchema } from "@/lib/schemas/symbols";
import { envelopeResponse } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { CACHE_POLICIES } from "@/server/upstream/cache";
import { searchSymbols } from "@/server/upstream/symbols";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ query: symbolsQuerySchema }, async ({ runtime, query, signal }) => {
  const result = await searchSymbols(runtime.upstream, query.q, { signal });
  return envelopeResponse(result, CACHE_POLICIES.symbols.freshMs);
});
