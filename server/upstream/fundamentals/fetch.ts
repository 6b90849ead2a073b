import "server-only";
import {
  type BalanceSheetQuery,
  type FundamentalsItem,
  type FundamentalsQuery,
  KINDS_WITH_PERIOD,
} from "@/lib/schemas/fundamentals";
import { AppError, invalidParameter, notFound } from "../../errors";
import { cacheKey, CACHE_POLICIES, type Cached } from "../cache";
import { type Upstream, type UpstreamQuery } from "../client";
import { upstreamBalanceSheetResponseSchema, upstreamFundamentalsResponseSchema } from "./wire";
import { toBalanceSheetItems, toFundamentalsItems, type V21Kind } from "./transform";

/** The reads of fundamentals, cached (docs/upstream.md §3, §4); kind-specific query rules mirror the service's. */

const V21_PATHS: Record<V21Kind, string> = {
  all: "/api/v2.1/fundamentals",
  "valuation-ratios": "/api/v2.1/fundamentals/valuationRatios",
  "operation-ratios": "/api/v2.1/fundamentals/operationRatios",
  "earning-ratios": "/api/v2.1/fundamentals/earningRatios",
  "earning-reports": "/api/v2.1/fundamentals/earningReports",
  financials: "/api/v2.1/fundamentals/financials",
  "share-class": "/api/v2.1/fundamentals/shareClass",
  "share-class-profile": "/api/v2.1/fundamentals/shareClassProfile",
  "alpha-beta": "/api/v2.1/fundamentals/alphaBeta",
  company: "/api/v2.1/fundamentals/company",
  "company-profile": "/api/v2.1/fundamentals/companyProfile",
  "asset-classification": "/api/v2.1/fundamentals/assetClassification",
};
export const BALANCE_SHEET_PATH = "/api/v3/fundamentals/balance-sheet";

/**
 * Kind-specific rules on top of `fundamentalsQuerySchema`, mirroring the upstream: `asOf` is refused on
 * asset-classification; `period`/`reportType` only exist on financials and earning-reports.
 */
export function checkFundamentalsQuery(kind: V21Kind, query: FundamentalsQuery): void {
  if (kind === "asset-classification" && query.asOf !== undefined) {
    throw invalidParameter("asOf is not supported for asset-classification");
  }
  const withPeriod = (KINDS_WITH_PERIOD as readonly string[]).includes(kind);
  if (!withPeriod && query.period !== undefined) {
    throw invalidParameter(`period is only supported for financials and earning-reports`);
  }
  if (!withPeriod && query.reportType !== undefined) {
    throw invalidParameter(`reportType is only supported for financials and earning-reports`);
  }
}

export function toUpstreamFundamentalsQuery(query: FundamentalsQuery): UpstreamQuery {
  return {
    symbols: query.symbols.join(","),
    asOf: query.asOf,
    period: query.period,
    reportType: query.reportType,
  };
}

export function toUpstreamBalanceSheetQuery(query: BalanceSheetQuery): UpstreamQuery {
  return { symbols: query.symbols.join(","), from: query.from, to: query.to, reportType: query.reportType };
}

function noneFound(symbols: readonly string[]): AppError {
  const list =
    symbols.length > 5
      ? `${symbols.slice(0, 5).join(", ")} and ${symbols.length - 5} more`
      : symbols.join(", ");
  return notFound(`No fundamentals found for ${list}.`);
}

export async function getFundamentals<K extends V21Kind>(
  upstream: Upstream,
  kind: K,
  query: FundamentalsQuery,
  options: { signal?: AbortSignal } = {},
): Promise<Cached<FundamentalsItem<K>[]>> {
  checkFundamentalsQuery(kind, query);
  const path = V21_PATHS[kind];
  const upstreamQuery = toUpstreamFundamentalsQuery(query);
  const cached = await upstream.cache.get(
    cacheKey(path, upstreamQuery),
    CACHE_POLICIES.fundamentals,
    async () => {
      const result = await upstream.http.get(path, upstreamQuery, upstreamFundamentalsResponseSchema);
      return result.status === "no_data" ? [] : toFundamentalsItems(kind, result.data);
    },
    options,
  );
  if (cached.value.length === 0) throw noneFound(query.symbols);
  return cached;
}

export async function getBalanceSheet(
  upstream: Upstream,
  query: BalanceSheetQuery,
  options: { signal?: AbortSignal } = {},
): Promise<Cached<FundamentalsItem<"balance-sheet">[]>> {
  const upstreamQuery = toUpstreamBalanceSheetQuery(query);
  const cached = await upstream.cache.get(
    cacheKey(BALANCE_SHEET_PATH, upstreamQuery),
    CACHE_POLICIES.fundamentals,
    async () => {
      const result = await upstream.http.get(
        BALANCE_SHEET_PATH,
        upstreamQuery,
        upstreamBalanceSheetResponseSchema,
      );
      return result.status === "no_data" ? [] : toBalanceSheetItems(result.data);
    },
    options,
  );
  if (cached.value.length === 0 || cached.value.every((i) => i.balanceSheet.length === 0)) {
    throw noneFound(query.symbols);
  }
  return cached;
}
