// GET /api/fundamentals/[kind] – one kind of fundamentals for up to 200 symbols: { data: Item[], meta }
import {
  balanceSheetQuerySchema,
  fundamentalsQuerySchema,
  FUNDAMENTALS_KINDS,
  isFundamentalsKind,
} from "@/lib/schemas/fundamentals";
import { notFound, toErrorResponse } from "@/server/http/errors";
import { parseQuery } from "@/server/http/parse-query";
import { envelopeResponse } from "@/server/http/respond";
import { CACHE_POLICIES } from "@/server/upstream/cache";
import { getBalanceSheet, getFundamentals } from "@/server/upstream/fundamentals";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime } from "@/server/runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(
  request: Request,
  context: { params: Promise<{ kind: string }> },
): Promise<Response> {
  try {
    const { kind } = await context.params;
    if (!isFundamentalsKind(kind)) {
      throw notFound(`Unknown fundamentals kind; expected one of ${FUNDAMENTALS_KINDS.join(", ")}.`);
    }
    const searchParams = new URL(request.url).searchParams;
    const result: { value: unknown; fetchedAt: string; stale: boolean } =
      kind === "balance-sheet"
        ? await getBalanceSheet(getRuntime().upstream, parseQuery(searchParams, balanceSheetQuerySchema), {
            signal: request.signal,
          })
        : await getFundamentals(
            getRuntime().upstream,
            kind,
            parseQuery(searchParams, fundamentalsQuerySchema),
            {
              signal: request.signal,
            },
          );
    return envelopeResponse(result, CACHE_POLICIES.fundamentals.freshMs);
  } catch (error) {
    return toErrorResponse(error);
  }
});
