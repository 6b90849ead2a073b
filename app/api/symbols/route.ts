// GET /api/symbols?q= – company search by ticker prefix and name words: { data: SymbolMatch[] (≤ 20), meta }
import { symbolsQuerySchema } from "@/lib/schemas/symbols";
import { toErrorResponse } from "@/server/http/errors";
import { parseQuery } from "@/server/http/parse-query";
import { envelopeResponse } from "@/server/http/respond";
import { CACHE_POLICIES } from "@/server/upstream/cache";
import { searchSymbols } from "@/server/upstream/symbols";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime } from "@/server/runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(request: Request): Promise<Response> {
  try {
    const { q } = parseQuery(new URL(request.url).searchParams, symbolsQuerySchema);
    const result = await searchSymbols(getRuntime().upstream, q, { signal: request.signal });
    return envelopeResponse(result, CACHE_POLICIES.symbols.freshMs);
  } catch (error) {
    return toErrorResponse(error);
  }
});
