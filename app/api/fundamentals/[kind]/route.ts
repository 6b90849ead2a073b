// GET /api/fundamentals/[kind] – one kind of fundamentals for up to 200 symbols: { data: Item[], meta }
import { z } from "zod";
import {
  balanceSheetQuerySchema,
  fundamentalsQuerySchema,
  FUNDAMENTALS_KINDS,
  isFundamentalsKind,
} from "@/lib/schemas/fundamentals";
import { notFound } from "@/server/errors";
import { parseQuery } from "@/server/http/parse-query";
import { envelopeResponse } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { CACHE_POLICIES } from "@/server/upstream/cache";
import { getBalanceSheet, getFundamentals } from "@/server/upstream/fundamentals";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(
  { params: z.object({ kind: z.string() }) },
  async ({ runtime, request, params, signal }) => {
    const { kind } = params;
    if (!isFundamentalsKind(kind)) {
      throw notFound(`Unknown fundamentals kind; expected one of ${FUNDAMENTALS_KINDS.join(", ")}.`);
    }
    // The query's schema depends on the kind.
    const searchParams = new URL(request.url).searchParams;
    const result: { value: unknown; fetchedAt: string; stale: boolean } =
      kind === "balance-sheet"
        ? await getBalanceSheet(runtime.upstream, parseQuery(searchParams, balanceSheetQuerySchema), {
            signal,
          })
        : await getFundamentals(runtime.upstream, kind, parseQuery(searchParams, fundamentalsQuerySchema), {
            signal,
          });
    return envelopeResponse(result, CACHE_POLICIES.fundamentals.freshMs);
  },
);
