import "server-only";
import { earningsQuerySchema, maQuerySchema } from "@/lib/schemas/calendar";
import { summariesQuerySchema } from "@/lib/schemas/calls";
import {
  balanceSheetQuerySchema,
  fundamentalsQuerySchema,
  FUNDAMENTALS_KINDS,
  isFundamentalsKind,
} from "@/lib/schemas/fundamentals";
import { symbolsQuerySchema } from "@/lib/schemas/symbols";
import { notFound } from "../errors";
import type { MarketRoute } from "../http/market-door";
import { parseQuery } from "../http/parse-query";
import { envelopeResponse, pagedResponse } from "../http/respond";
import { CACHE_POLICIES } from "./cache";
import { listEarnings, listMa } from "./calendars";
import { listSummaries } from "./calls";
import type { Upstream } from "./client";
import { getBalanceSheet, getFundamentals } from "./fundamentals";
import { searchSymbols } from "./symbols";

/**
 * The market-data routes: their answers are the same for every user, so the custom server owns them behind its own
 * router (server/http/market-door.ts; docs/architecture.md "The market-data routes"), and `app/api/…/route.ts`
 * hands them to the same answer when Next serves them itself (`next dev`, or Next started without the custom
 * server). One definition per route: its path, its query schema, its answer and its freshness.
 */
const FUNDAMENTALS_PATH = /^\/api\/fundamentals\/([A-Za-z0-9_-]+)$/;

export type MarketRouteName = "earnings" | "ma" | "fundamentals" | "symbols" | "summaries";

export function marketRoutes(upstream: Upstream): Record<MarketRouteName, MarketRoute> {
  return {
    earnings: {
      pattern: /^\/api\/calendar\/earnings$/,
      answer: async (url, signal) => {
        const page = await listEarnings(upstream, parseQuery(url.searchParams, earningsQuerySchema), {
          signal,
        });
        return envelopeResponse(page, CACHE_POLICIES.calendar.freshMs, {
          page: page.page,
          pageSize: page.pageSize,
          hasMore: page.hasMore,
        });
      },
    },
    ma: {
      pattern: /^\/api\/calendar\/ma$/,
      answer: async (url, signal) => {
        const page = await listMa(upstream, parseQuery(url.searchParams, maQuerySchema), { signal });
        return envelopeResponse(page, CACHE_POLICIES.calendar.freshMs, {
          page: page.page,
          pageSize: page.pageSize,
          hasMore: page.hasMore,
        });
      },
    },
    fundamentals: {
      pattern: FUNDAMENTALS_PATH,
      answer: async (url, signal) => {
        const kind = FUNDAMENTALS_PATH.exec(url.pathname)?.[1] ?? "";
        if (!isFundamentalsKind(kind)) {
          throw notFound(`Unknown fundamentals kind; expected one of ${FUNDAMENTALS_KINDS.join(", ")}.`);
        }
        // The query's schema depends on the kind.
        const result: { value: unknown; fetchedAt: string; stale: boolean } =
          kind === "balance-sheet"
            ? await getBalanceSheet(upstream, parseQuery(url.searchParams, balanceSheetQuerySchema), {
                signal,
              })
            : await getFundamentals(upstream, kind, parseQuery(url.searchParams, fundamentalsQuerySchema), {
                signal,
              });
        return envelopeResponse(result, CACHE_POLICIES.fundamentals.freshMs);
      },
    },
    symbols: {
      pattern: /^\/api\/symbols$/,
      answer: async (url, signal) => {
        const query = parseQuery(url.searchParams, symbolsQuerySchema);
        return envelopeResponse(
          await searchSymbols(upstream, query.q, { signal }),
          CACHE_POLICIES.symbols.freshMs,
        );
      },
    },
    summaries: {
      pattern: /^\/api\/summaries$/,
      answer: async (url, signal) => {
        const query = parseQuery(url.searchParams, summariesQuerySchema);
        return pagedResponse(await listSummaries(upstream, query, { signal }), query, 30);
      },
    },
  };
}
